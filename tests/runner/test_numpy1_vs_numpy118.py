"""NumPy 1 under `run` against NumPy 1.18 itself (the TF 1.15 reference), and after `migrate`.

One script (scripts/numpy1_traps.py) holds each trap: the removed names in arithmetic, calls
and dtype= arguments, ragged arrays, printed scalars and arrays. It prints the same text
under NumPy 1.18.5 (recorded) and under `tf1compat run`; migrated, under plain Python on
NumPy 2, the same values wherever migrate converted, and it reports the rest. Every removed
name the census counts (census/data/numpy_uses.csv) is passed to the script, which says
whether numpy has it: NumPy 1.18's answer and run's must agree, so each counted name NumPy
1.18 had is served, and one it lacked is not.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import tf1_reference
from budgets import budget
from isolated import run_cli
from tf1_reference import recorded
from tf1compat.census import removed_numpy
from tf1compat.migrate.driver import apply_rules
from tf1compat.migrate.findings import Kind
from tf1compat.runner.numpy1 import aliases, scipy_misc, scipy_view

TRAPS = Path(__file__).resolve().parent / "scripts" / "numpy1_traps.py"
COUNTED = removed_numpy.read()
NUMPY_NAMES = sorted(name.split(".", 1)[1] for name in COUNTED if name.startswith("numpy."))
# NumPy 2's reprs of scalars, which migrate leaves as they print (the values are the same).
_SCALAR_REPR = re.compile(r"np\.(?:float|int|uint|complex|bool|str)\w*\(([^()]*)\)")


def numpy_2_printed(text):
    return _SCALAR_REPR.sub(r"\1", re.sub(r"np\.(True|False)_", r"\1", text))


def test_the_traps_print_under_run_what_numpy_1_18_prints(tmp_path):
    expected = recorded.run(str(tf1_reference.require()), [str(TRAPS), *NUMPY_NAMES],
                            cwd=tmp_path, env=tf1_reference.environment())
    assert expected.returncode == 0, expected.stderr[-3000:]
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(TRAPS), *NUMPY_NAMES)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == expected.stdout
    has = dict(line.split()[1:] for line in expected.stdout.splitlines()
               if line.startswith("has "))
    assert set(has) == set(NUMPY_NAMES)
    assert {name for name, there in has.items() if there == "True"} <= set(aliases.ALIASES)
    served = json.loads(report.read_text())["numpy1"]
    # every read counts, the script's hasattr too: np.float 4 + 1, np.asscalar 2 + 1
    assert served["names"]["float"] == 5 and served["names"]["asscalar"] == 3
    assert sorted(where.rsplit(":", 1)[1] for where in served["ragged"]) == ["50", "51", "52"]
    assert f"{TRAPS}:50: VisibleDeprecationWarning: a ragged nested sequence" in result.stderr
    assert "NumPy 1 for the script (--numpy 1, on NumPy 2." in result.stderr and \
        "ragged arrays made object arrays: 3 at numpy1_traps.py:50" in result.stderr

    migrated, findings = apply_rules(TRAPS.read_text(), "tf1compat")
    script = tmp_path / "migrated.py"
    script.write_text(migrated)
    plain = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           cwd=str(tmp_path), timeout=budget(30))
    assert plain.returncode == 0, plain.stderr[-3000:]
    reported = " ".join(f.message for f in findings if f.kind is Kind.NOT_CONVERTED)
    left = 0
    for ours, theirs in zip(plain.stdout.splitlines(), expected.stdout.splitlines()):
        label = theirs.split(" ", 1)[0]
        if label == "has":  # getattr by name: nothing for migrate to rewrite
            continue
        if ours.endswith(" raised AttributeError"):
            assert f"np.{label} is not in NumPy 2" in reported, ours
            left += 1
        else:
            assert numpy_2_printed(ours) == theirs
    assert left == sum(aliases.ALIASES[n].replacement is None for n in NUMPY_NAMES
                       if n in aliases.ALIASES)  # each counted name migrate reports is probed


def test_every_counted_scipy_misc_helper_is_served_or_fails_saying_what_to_use():
    helpers = {name.split(".")[-1] for name in COUNTED if name.startswith("scipy.misc.")}
    assert {"imread", "imsave", "imresize"} <= helpers
    assert helpers <= {*scipy_misc.SERVED, *scipy_misc.REMOVED, *scipy_view.SPECIAL}


def test_numpy_current_leaves_numpy_2_and_a_bad_value_is_one_line(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import numpy as np\nprint(repr(np.float32(1.5)))\nnp.float(1)\n")
    result = run_cli("run", "--numpy", "current", "--report-json", str(tmp_path / "r.json"),
                     str(script))
    assert result.returncode == 1
    assert result.stdout == "np.float32(1.5)\n"
    assert "AttributeError: module 'numpy' has no attribute 'float'" in result.stderr
    assert json.loads((tmp_path / "r.json").read_text())["numpy1"] is None
    bad = run_cli("run", "--numpy", "2", str(script))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "tf1compat: error: --numpy '2' is not accepted: use --numpy 1 (NumPy 1 for the "
        "script, the default) or --numpy current"]
