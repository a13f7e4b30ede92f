"""The TF 1.15 records (recorded.py): a run replays from its record, a changed input is no
record, a live run is held against its record. These run a small Python script in place of
the reference (what the recorder does does not depend on which interpreter it runs), with
the records in a temporary folder."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tf1_reference import record_files, recorded

SCRIPT = textwrap.dedent("""
    import os, sys
    data = open(sys.argv[1]).read().strip()
    with open("written.txt", "w") as out:
        out.write("made in " + os.getcwd() + "\\n")
    print("cwd", os.getcwd(), "data", data, "loss", 0.25)
""")


@pytest.fixture
def records(tmp_path, monkeypatch):
    folder = tmp_path / "records"
    monkeypatch.setattr(record_files, "RECORDS", folder)
    for name in ("TF1COMPAT_TF1_RECORD", "TF1COMPAT_TF1_LIVE", "TF1COMPAT_TF1_RECORD_LOG"):
        monkeypatch.delenv(name, raising=False)
    return folder


def workspace(root: Path, data: str = "7") -> tuple[Path, list[str]]:
    root.mkdir(parents=True)
    (root / "probe.py").write_text(SCRIPT)
    (root / "data.txt").write_text(data)
    return root, [str(root / "probe.py"), str(root / "data.txt")]


def run(folder: Path, args: list[str], **kwargs):
    return recorded.run(sys.executable, args, cwd=folder, env={}, outputs=["written.txt"],
                        **kwargs)


def record(folder, args, monkeypatch):
    monkeypatch.setenv("TF1COMPAT_TF1_RECORD", "1")
    result = run(folder, args)
    monkeypatch.delenv("TF1COMPAT_TF1_RECORD")
    return result


def test_a_recorded_run_replays_with_this_runs_folders_and_files(tmp_path, records,
                                                                 monkeypatch):
    first, args = workspace(tmp_path / "first")
    live = record(first, args, monkeypatch)
    assert live.returncode == 0 and f"cwd {first} data 7 loss 0.25" in live.stdout
    [stored] = list(records.glob("*.json"))
    assert str(first) not in stored.read_text()  # folders stored as placeholders

    second, args = workspace(tmp_path / "elsewhere")
    replayed = run(second, args)
    assert replayed.args[0] == "tf1.15-record"  # nothing ran
    assert replayed.stdout == live.stdout.replace(str(first), str(second))
    assert (second / "written.txt").read_text() == f"made in {second}\n"


def test_a_changed_input_has_no_record_and_names_the_regenerate_command(tmp_path, records,
                                                                         monkeypatch):
    first, args = workspace(tmp_path / "first")
    record(first, args, monkeypatch)
    changed, changed_args = workspace(tmp_path / "changed", data="8")
    with pytest.raises(AssertionError) as failure:
        run(changed, changed_args)
    message = str(failure.value)
    assert "no TensorFlow 1.15 record" in message
    assert "input <<cwd>>/data.txt changed" in message
    assert "python tests/tf1_reference/regenerate.py" in message
    assert "test_a_changed_input_has_no_record" in message
    edited, edited_args = workspace(tmp_path / "edited")
    (edited / "probe.py").write_text(SCRIPT.replace("0.25", "0.5"))
    with pytest.raises(AssertionError, match="no TensorFlow 1.15 record"):
        run(edited, edited_args)


def test_a_probe_naming_a_temporary_folder_is_refused(tmp_path, records, monkeypatch):
    first, args = workspace(tmp_path / "first")
    (first / "probe.py").write_text(SCRIPT + "open('/tmp/pytest-of-x/pytest-7/data0/a.csv')\n")
    with pytest.raises(AssertionError, match="names the temporary path '/pytest-of-x/"
                                             "pytest-7/data0/a.csv'.*pass that folder as an"):
        run(first, args)


def test_a_changed_requirement_makes_every_record_stale(tmp_path, records, monkeypatch):
    first, args = workspace(tmp_path / "first")
    record(first, args, monkeypatch)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(record_files.REQUIREMENTS.read_text() + "numpy==1.18.4\n")
    monkeypatch.setattr(record_files, "REQUIREMENTS", requirements)
    with pytest.raises(AssertionError, match="no TensorFlow 1.15 record"):
        run(first, args)


def test_a_changed_keras2_requirement_makes_only_the_keras2_runs_stale(tmp_path, records,
                                                                      monkeypatch):
    first, args = workspace(tmp_path / "first")
    keras2 = tmp_path / "keras2-requirements.txt"
    keras2.write_text(record_files.KERAS2_REQUIREMENTS.read_text())
    monkeypatch.setenv("TF1COMPAT_TF1_RECORD", "1")
    plain = run(first, args).stdout
    run(first, args, requirements=[keras2])
    monkeypatch.delenv("TF1COMPAT_TF1_RECORD")
    keras2.write_text(keras2.read_text() + "h5py==2.9.0\n")
    with pytest.raises(AssertionError, match="no TensorFlow 1.15 record"):
        run(first, args, requirements=[keras2])
    assert run(first, args).stdout == plain  # a run without Keras 2 keeps its record


def test_what_earlier_tests_left_in_the_environment_is_no_input(tmp_path, records,
                                                                  monkeypatch):
    first, args = workspace(tmp_path / "first")
    record(first, args, monkeypatch)
    left_over = {"TF_FORCE_GPU_ALLOW_GROWTH": "true", "TF_USE_LEGACY_KERAS": "1",
                 "TF_ENABLE_ONEDNN_OPTS": "0"}
    replayed = recorded.run(sys.executable, args, cwd=first, env=left_over,
                            outputs=["written.txt"])
    assert replayed.args[0] == "tf1.15-record"
    with pytest.raises(AssertionError, match="env TF_CONFIG is new"):
        recorded.run(sys.executable, args, cwd=first, env={"TF_CONFIG": "{}"},
                     outputs=["written.txt"])
    with pytest.raises(AssertionError, match="env MY_PROBE_STEPS is new"):
        recorded.run(sys.executable, args, cwd=first, env={"MY_PROBE_STEPS": "3"},
                     outputs=["written.txt"], probe_env=["MY_PROBE_STEPS"])


def test_a_live_run_is_held_against_its_record(tmp_path, records, monkeypatch):
    first, args = workspace(tmp_path / "first")
    record(first, args, monkeypatch)
    [stored] = list(records.glob("*.json"))
    monkeypatch.setenv("TF1COMPAT_TF1_LIVE", "1")
    assert run(first, args).args[0] == sys.executable  # live, and it agrees

    data = json.loads(stored.read_text())
    data["stdout"] = data["stdout"].replace("loss 0.25", "loss 0.2500001")
    stored.write_text(json.dumps(data))
    run(first, args)  # within LIVE_RTOL: the same TF 1.15 on another CPU

    data["stdout"] += "task pid 123\n"
    stored.write_text(json.dumps(data))
    run(first, args, varies=[r"^task pid \d+$"])  # a line that varies is not compared

    data["stdout"] = data["stdout"].replace("task pid 123\n", "")
    data["stdout"] = data["stdout"].replace("loss 0.2500001", "loss 0.3")
    stored.write_text(json.dumps(data))
    with pytest.raises(AssertionError, match="no longer prints what its record") as failure:
        run(first, args)
    assert "0.25, recorded 0.3" in str(failure.value)


def test_inputs_made_in_this_run_always_run_live(tmp_path, records):
    first, args = workspace(tmp_path / "first")
    result = run(first, args, live=True)
    assert result.args[0] == sys.executable and "data 7" in result.stdout
    assert not list(records.glob("*.json"))  # and are never recorded


def test_the_live_sample_and_the_submissions_new_records_go_live(records, monkeypatch):
    sample = recorded.LIVE_SAMPLE[0]
    assert recorded.live_reason(sample + "#0", None, False) == "in the live sample"
    other = "tests/x.py::test_y#0"
    old, new = (record_files.Record(Path(name), {}) for name in ("old.json", "new.json"))
    monkeypatch.setattr(recorded, "committed_in_submission", lambda: frozenset({"new.json"}))
    assert recorded.live_reason(other, old, False) is None
    assert recorded.live_reason(other, new, False) == "its record is new in this submission"


def test_every_committed_record_is_whole_and_named_by_its_digest():
    paths = sorted(Path(recorded.__file__).parent.joinpath("recorded").glob("*.json"))
    assert paths, "no committed TF 1.15 records"
    pinned = [line for line in record_files.REQUIREMENTS.read_text().splitlines()
              if line and not line.startswith("#")]
    for path in paths:
        data = json.loads(path.read_text())
        assert path.stem == data["digest"][:24], path.name
        assert data["requirements"] == pinned, path.name
        assert {"case", "args", "returncode", "stdout", "stderr", "files"} <= set(data)
        assert "/tmp/" not in json.dumps(data["args"]), (path.name, data["args"])


def test_the_submissions_records_are_those_changed_since_its_base(tmp_path, monkeypatch):
    def git(*args):
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True,
                              capture_output=True, text=True).stdout.strip()

    records = tmp_path / "recorded"
    records.mkdir()
    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (records / "landed.json").write_text("{}")
    (records / "changed.json").write_text("{}")
    git("add", "-A")
    git("commit", "-qm", "landed")
    base = git("rev-parse", "HEAD")
    (records / "new.json").write_text("{}")
    (records / "changed.json").write_text('{"a": 1}')
    git("add", "-A")
    git("commit", "-qm", "the submission")
    base_file = tmp_path / "submission_base.txt"
    monkeypatch.setattr(recorded, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(recorded, "RECORDS", records)
    monkeypatch.setattr(recorded, "SUBMISSION_BASE", base_file)
    monkeypatch.setattr(recorded, "SUBMISSION_HOURS", 4.0)

    def new_records():
        recorded.committed_in_submission.cache_clear()
        return recorded.committed_in_submission()

    base_file.write_text(f"# the base\n{base}\n")
    assert new_records() == {"new.json", "changed.json"}
    # a base this clone lacks, or none: the records of the last hours (here, all of them)
    base_file.write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert new_records() == {"new.json", "changed.json", "landed.json"}
    base_file.unlink()
    assert new_records() == {"new.json", "changed.json", "landed.json"}
    recorded.committed_in_submission.cache_clear()
