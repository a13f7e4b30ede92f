"""Keras 2 scripts three ways: Keras 2.3.1 on TF 1.15 (recorded), `tf1compat run`, `migrate`.

Each script fixes its weights from NumPy and prints losses and predictions; the three must
print the same numbers (tf1compat.compare.printed_numbers, the corpus's tolerances). Under `run`
the report lists Keras's sessions with their options.
"""

import json
import subprocess
import sys

import pytest

from budgets import budget
from isolated import python_env, run_cli
from keras2 import reference
from tf1compat.compare.printed_numbers import compare

SCRIPTS = reference.SCRIPTS
DEVICE_MAP = ["--device-map", "gpu:*=cpu:*"]
# script -> (its arguments, `run`'s options, what TF 1.15 runs in place of the script)
CASES = {
    "session_fit": ([], [], []),
    "functional_export": (["OUT"], [], []),
    "multi_gpu": ([], DEVICE_MAP, [SCRIPTS / "tf115_gpus_on_cpus.py"]),
    "predict_classes": ([], [], []),  # Sequential's methods tf_keras dropped
}
NO_SESSION = ("functional_export", "predict_classes")


def _migrated(tmp_path, name):
    from tf1compat.migrate.driver import migrate_source

    source = (SCRIPTS / f"{name}.py").read_text()
    migrated, findings = migrate_source(source, f"{name}.py", "tf1compat")
    assert "import keras" not in migrated and "from keras" not in migrated, migrated
    assert "tf_keras" in migrated, migrated
    if name not in NO_SESSION:  # the sessions given to K.set_session take keywords
        assert "tf1compat.config_proto(" in migrated and "ConfigProto" not in migrated, migrated
    path = tmp_path / f"migrated_{name}.py"
    path.write_text(migrated)
    return path, findings


@pytest.mark.rewrites
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_keras_2_script_prints_tf115s_numbers_under_run_and_after_migrate(
        tf1_python, tmp_path, name):
    args, options, wrapper = CASES[name]
    out = tmp_path / "out"
    out.mkdir()
    script_args = [str(out) if a == "OUT" else a for a in args]
    expected = reference.printed(reference.run(
        tf1_python, [*wrapper, SCRIPTS / f"{name}.py", *script_args], outputs=[]).stdout)
    assert expected.count("\n") >= 2, expected

    report_path = tmp_path / "report.json"
    under_run = run_cli("run", "--report-json", str(report_path), *options,
                        str(SCRIPTS / f"{name}.py"), *script_args)
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    comparison = compare(expected, reference.printed(under_run.stdout))
    assert comparison.ok, comparison.report()
    report = json.loads(report_path.read_text())
    keras_sessions = [s for s in report["sessions"] if s.get("keras")]
    assert keras_sessions, report["sessions"]
    if name == "session_fit":  # the script's ConfigProto, given to K.set_session
        session = keras_sessions[0]
        assert session["keras"].startswith("given to keras.backend.set_session at session_fit.py")
        assert session["options"] == {"log_placement": True, "soft_placement": True,
                                      "growth": True, "memory_fraction": 0.4}, session
        assert "Keras: given to keras.backend.set_session" in under_run.stderr
        # Tracked process-wide as any session's: the second one's fraction is ignored by TF.
        assert keras_sessions[1]["options"] == {"memory_fraction": 0.2}
        assert "GpuOptionsIgnoredWarning: this session asks memory_fraction=0.2, but the first " \
               "session of this process set memory_fraction=0.4" in under_run.stderr
    elif name in NO_SESSION:  # none set: Keras made its own, a session like any other
        assert keras_sessions[0]["keras"].startswith("Keras's own session")
        assert keras_sessions[0]["options"].get("soft_placement") is True
    else:
        assert {r["to"] for r in report["device_remaps"]} == {"CPU:0", "CPU:1"}

    path, findings = _migrated(tmp_path, name)
    assert any(f.rule == "keras2" for f in findings), findings
    if options:  # multi_gpu_model needs GPUs, as Keras 2's did: the device map gives them
        after = run_cli("run", "--no-report", *options, str(path), *script_args)
    else:  # plain Python on TF 2.21
        after = subprocess.run([sys.executable, str(path), *script_args], capture_output=True,
                               text=True, env=python_env(), cwd=str(tmp_path),
                               timeout=budget(240, floor=240))
    assert after.returncode == 0, after.stderr[-3000:]
    comparison = compare(expected, reference.printed(after.stdout))
    assert comparison.ok, comparison.report()
