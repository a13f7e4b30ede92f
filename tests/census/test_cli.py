"""`python -m tf1compat.census`: --report, --folder, a recount, and what it says to bad input."""

import csv
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from budgets import budget

from tf1compat.census.__main__ import main

DATA = Path(__file__).resolve().parents[2] / "tf1compat" / "census" / "data"
SCRIPT = textwrap.dedent("""
    import tensorflow as tf
    from tensorflow.python.framework import graph_util
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.layers.dense(x, 2)
    frozen = graph_util.convert_variables_to_constants(sess, sess.graph_def, ["y"])
    """)


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def _one_line_error(capsys, argv) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_the_report_prints_the_committed_totals_and_names_per_module():
    result = subprocess.run([sys.executable, "-m", "tf1compat.census", "--report"],
                            capture_output=True, text=True, timeout=budget(5, floor=30))
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    uses = _rows(DATA / "uses.csv")
    total = sum(int(row["uses"]) for row in uses)
    assert lines[0].startswith(f"census: {total} uses of {len(uses)} TensorFlow names in ")
    assert lines[0].endswith(f"of {len(_rows(DATA / 'repositories.csv'))} repositories "
                             "(tf1compat/census/data)")
    modules = [line.split()[0] for line in lines if line[:1] not in (" ", "")]
    for module in ("tf", "tf.train", "tf.nn", "tf.contrib", "tensorflow.python"):
        assert module in modules, module
    first = lines.index(next(line for line in lines if line.startswith("tf ")))
    assert lines[first + 1].split() == [uses[0]["uses"], uses[0]["repositories"], uses[0]["name"]]


def test_folder_counts_a_folder_of_your_own(tmp_path, capsys):
    (tmp_path / "model.py").write_text(SCRIPT)
    (tmp_path / "python2.py").write_text("import tensorflow as tf\nprint 'old'\n")
    (tmp_path / "notes.txt").write_text("import tensorflow as tf\n")
    main(["--folder", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (f"6 uses of 6 TensorFlow names in 1 of 2 .py files of {tmp_path} "
                       "(1 do not parse)")
    assert {line.split()[1] for line in out[:-1]} == {
        "tf", "tf.placeholder", "tf.float32", "tf.layers.dense",
        "tensorflow.python.framework:graph_util",
        "tensorflow.python.framework.graph_util:convert_variables_to_constants"}


def _mirror(tmp_path) -> tuple[Path, str]:
    """A mirrors folder with one repository (`someone/model`, one commit) in the snapshots' layout."""
    work = tmp_path / "mirrors" / "someone+model" / "repo"
    (work / "src").mkdir(parents=True)
    (work / "src" / "model.py").write_text(SCRIPT)
    (work / "README.md").write_text("not Python\n")
    git = ["git", "-C", str(work), "-c", "user.name=census", "-c", "user.email=census@example.com"]
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "model"], check=True)
    commit = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    return tmp_path / "mirrors", commit


def test_a_recount_writes_the_three_files_and_the_report_reads_them(tmp_path, capsys):
    mirrors, commit = _mirror(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    (data / "repositories.csv").write_text(
        f"repo,commit,date,kind,chosen_as\nsomeone/model,{commit},2019-01-01,tutorial/general,"
        "test\n")
    main(["--mirrors", str(mirrors), "--data", str(data)])
    assert capsys.readouterr().out.startswith("counted 6 uses of 6 names in 1 repositories in ")
    uses = {row["name"]: row for row in _rows(data / "uses.csv")}
    assert uses["tf.float32"]["uses"] == "1" and uses["tf.float32"]["repositories"] == "1"
    assert uses["tensorflow.python.framework.graph_util:convert_variables_to_constants"][
        "spellings"] == "attr:tensorflow.python.framework:graph_util.convert_variables_to_constants"
    assert _rows(data / "repositories.csv") == [{
        "repo": "someone/model", "commit": commit, "date": "2019-01-01",
        "kind": "tutorial/general", "chosen_as": "test", "python_files": "1",
        "tensorflow_files": "1", "unparsed_files": "0", "uses": "6", "names": "6"}]
    assert sum(int(row["uses"]) for row in _rows(data / "repository_uses.csv")) == 6
    main(["--report", "--data", str(data)])
    assert capsys.readouterr().out.startswith(
        "census: 6 uses of 6 TensorFlow names in 1 of 1 repositories")
    main(["--mirrors", str(mirrors), "--data", str(data), "--repo", "someone/model"])
    assert capsys.readouterr().out.splitlines()[-1] == \
        "6 uses of 6 TensorFlow names in 1 of 1 .py files of someone/model"


def test_a_missing_mirrors_folder_is_one_line_naming_it(tmp_path, capsys):
    err = _one_line_error(capsys, ["--mirrors", str(tmp_path / "nowhere")])
    assert f"--mirrors '{tmp_path / 'nowhere'}' is not a folder" in err
    assert "--mirrors None is not a folder" in _one_line_error(capsys, [])


def test_an_unknown_repository_is_one_line_naming_it(tmp_path, capsys):
    err = _one_line_error(capsys, ["--mirrors", str(tmp_path), "--repo", "nobody/nothing"])
    assert "unknown repository 'nobody/nothing'" in err and "repositories.csv lists" in err


def test_a_listed_repository_missing_from_the_mirrors_is_one_line_naming_it(tmp_path, capsys):
    err = _one_line_error(capsys, ["--mirrors", str(tmp_path), "--repo", "google-research/bert"])
    assert f"no git directory for google-research/bert under {tmp_path}" in err


def test_a_commit_missing_from_the_snapshot_is_one_line(tmp_path, capsys):
    mirrors, _ = _mirror(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    (data / "repositories.csv").write_text(f"repo,commit\nsomeone/model,{'0' * 40}\n")
    err = _one_line_error(capsys, ["--mirrors", str(mirrors), "--data", str(data)])
    assert "git failed on" in err and "is the listed commit in that snapshot?" in err


def test_a_missing_folder_is_one_line(tmp_path, capsys):
    assert "is not a folder" in _one_line_error(capsys, ["--folder", str(tmp_path / "none")])
