"""Size-1 arrays convert to Python scalars under `run --numpy 1` as under NumPy 1.18 (the TF
1.15 reference): `float(w)`, `int(step)`, `"%f" % loss` of what `sess.run` returned.

NumPy 2.4 raises for any array with ndim > 0; the change (runner/numpy1/scalars.py) is
process-wide, so each check of it runs in its own process.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import tf1_reference
from budgets import budget
from isolated import python_env, run_cli
from tf1_reference import recorded

SCRIPT = Path(__file__).resolve().parent / "scripts" / "size_one_scalars.py"


def test_the_script_prints_under_run_what_tf_1_15_prints(tmp_path):
    expected = recorded.run(str(tf1_reference.require()), [str(SCRIPT)], cwd=tmp_path,
                            env=tf1_reference.environment())
    assert expected.returncode == 0, expected.stderr[-3000:]
    assert "percent step: 7, weight: 2.500000, bias: 3.00" in expected.stdout
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(SCRIPT))
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == expected.stdout
    assert json.loads(report.read_text())["numpy1"]["size_one_scalars"] is None
    assert "size-1 arrays convert to Python scalars as in NumPy 1" in result.stderr


def test_numpy_current_keeps_numpy_2s_error(tmp_path):
    result = run_cli("run", "--numpy", "current", str(SCRIPT))
    assert result.returncode == 1
    # "%d" % array asks the array for an int: NumPy 2.4's refusal, as Python words it
    assert "TypeError: %d format: a real number is required, not numpy.ndarray" \
        in result.stderr


def _in_a_fresh_process(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                            text=True, env=python_env(), timeout=budget(60))
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_the_change_is_made_once_and_undone_whole():
    printed = _in_a_fresh_process("""
        import numpy as np
        from tf1compat.shared import patches
        from tf1compat.runner.numpy1 import scalars

        def converts(value):
            try:
                return float(value)
            except TypeError:
                return "TypeError"

        before = np.ndarray.__dict__["__float__"]
        print(converts(np.ones(1)), converts(np.matrix([[2.0]])))
        print(patches.apply("numpy.size-one-scalars", scalars.change))
        made = np.ndarray.__dict__["__float__"]
        print(patches.apply("numpy.size-one-scalars", scalars.change),
              np.ndarray.__dict__["__float__"] is made)
        print(converts(np.ones(1)), converts(np.matrix([[2.0]])), converts(np.ones(2)),
              int(np.array([[3.9]])))
        print(patches.undo("numpy.size-one-scalars"),
              np.ndarray.__dict__["__float__"] is before)
        print(converts(np.ones(1)), converts(np.matrix([[2.0]])), converts(np.array(4.0)))
    """)
    assert printed.splitlines() == [
        "TypeError TypeError", "None", "None True", "1.0 2.0 TypeError 3", "True True",
        "TypeError TypeError 4.0"]


def test_the_layout_check_tells_numpy_s_type_from_another():
    printed = _in_a_fresh_process("""
        import numpy as np
        from tf1compat.runner.numpy1 import scalars
        print(scalars.layout_problem(np.ndarray))
        print(scalars.layout_problem(np.generic))
    """)
    assert printed.splitlines() == [
        "None", "numpy.ndarray's type name is not where CPython keeps it"]
