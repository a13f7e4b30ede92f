"""`tf1compat run` on a TensorFlow that lacks a private name it relies on.

The child (`bootstrap.main`) runs in a fresh process where the names were
taken away first (see tests/internals_absent.py): a required one missing
stops the run with one message and no traceback; optional ones missing turn
their features off with a warning, and the script still runs.
"""

from __future__ import annotations

import textwrap

from isolated import last_json, run_python

from tf1compat.shared import tf_internals
from tf1compat.shared.tf_internals import DECLARED

SCRIPT = """
import tensorflow as tf
with tf.device('/gpu:0'):
    doubled = tf.constant(3) * 2
with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    print('RAN', sess.run(doubled))
"""

CHILD = """
import contextlib, io, json, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "tests"))
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
from internals_absent import Remover, entries, make_absent
from tf1compat.runner import RunSpec, bootstrap
from tf1compat.shared import tf_internals

def run_without(labels, folder):
    remover = Remover()
    taken = set()  # two features may rely on one name: it is taken away once
    for internal in tf_internals.DECLARED:
        if internal.label in labels:
            for name, instance in entries(internal):
                if (internal.module, name) not in taken:
                    taken.add((internal.module, name))
                    make_absent(remover, internal, name, instance)
    spec_path = os.path.join(folder, "spec.json")
    report = os.path.join(folder, "report.json")
    with open(spec_path, "w") as handle:
        handle.write(RunSpec(script=os.path.join(folder, "script.py"), args=[], options={{}},
                             device_map=["gpu:*=cpu:*"], report_path=report).to_json())
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = bootstrap.main(spec_path)
    finally:
        remover.undo()
    with open(report) as handle:
        written = json.load(handle)
    return dict(code=code, stdout=out.getvalue(), stderr=err.getvalue(), report=written)

results = {{}}
for index, labels in enumerate({cases!r}):
    folder = os.path.join({folder!r}, str(index))
    results[index] = run_without(labels, folder)
print(json.dumps(results))
"""


def _run_cases(tmp_path, cases: list[list[str]]) -> list[dict]:
    for index in range(len(cases)):
        (tmp_path / str(index)).mkdir()
        (tmp_path / str(index) / "script.py").write_text(textwrap.dedent(SCRIPT))
    results = last_json(run_python(CHILD.format(cases=cases, folder=str(tmp_path))))
    return [results[str(index)] for index in range(len(cases))]


def test_a_missing_required_internal_stops_the_run_with_one_message(tmp_path):
    required = [internal for internal in DECLARED if internal.required]
    assert required, "the runner declares what it cannot work without"
    results = _run_cases(tmp_path, [[internal.label] for internal in required])
    version = tf_internals.tensorflow_version()
    for internal, result in zip(required, results):
        assert result["code"] == 1, result
        assert "RAN" not in result["stdout"]
        lines = result["stderr"].strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tf1compat run: cannot start:"), lines
        assert internal.locations[0] in lines[0]
        assert f"TensorFlow {version} does not have" in lines[0]
        assert "tested with TensorFlow 2.21.0" in lines[0]
        assert "Traceback" not in result["stderr"]
        assert result["report"] == {"not_started": lines[0].split("cannot start: ", 1)[1]}


def test_missing_optional_internals_turn_their_features_off_and_the_script_runs(tmp_path):
    optional = [internal for internal in DECLARED if internal.at_run_start and not internal.required]
    [result] = _run_cases(tmp_path, [[internal.label for internal in optional]])
    assert result["code"] == 0, result["stderr"]
    assert "RAN 6" in result["stdout"]  # soft placement lets /gpu:0 run on the CPU
    warnings = [line for line in result["stderr"].splitlines()
                if line.startswith("tf1compat run: warning:")]
    assert len(warnings) == len(optional), result["stderr"]
    for internal, warning in zip(optional, warnings):
        assert internal.locations[0] in warning
        assert f"{internal.feature} is off" in warning
    assert "Traceback" not in result["stderr"]
    assert result["report"]["exit_code"] == 0
    assert result["report"].get("remaps", {}) in ({}, [])  # --device-map was off


def test_the_parent_adds_nothing_to_the_childs_message(tmp_path, monkeypatch, capsys):
    from tf1compat.cli import main
    from tf1compat.runner import spawn

    monkeypatch.setattr(spawn.ChildRun, "run", lambda self: (1, {"not_started": "why"}))
    path = tmp_path / "script.py"
    path.write_text("print('never')\n")
    assert main.main(["run", str(path)]) == 1
    assert capsys.readouterr().err == ""
