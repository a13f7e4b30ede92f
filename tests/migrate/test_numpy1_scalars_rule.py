"""`migrate`: a fetched value given to float(), int() or a numeric %-conversion goes through
`.item()` (NumPy 2.4 refuses a one-element array, which NumPy 1 converted); the program then
prints what it printed under TF 1.15, as it does under `run`."""

import subprocess
import sys
from pathlib import Path

import tf1_reference
from budgets import budget
from isolated import python_env, run_cli
from tf1_reference import recorded
from tf1compat.compare.printed_numbers import compare
from tf1compat.migrate.driver import migrate_source
from tf1compat.migrate.findings import Kind

SCRIPT = Path(__file__).resolve().parents[1] / "runner" / "scripts" / "fetched_scalars.py"


def test_the_log_lines_print_as_under_tf_1_15_after_migrate_and_under_run(tmp_path):
    expected = recorded.run(str(tf1_reference.require()), [str(SCRIPT)], cwd=tmp_path,
                            env=tf1_reference.environment())
    assert expected.returncode == 0, expected.stderr[-3000:]
    assert expected.stdout.startswith("step: 0, weight: ")
    migrated, findings = migrate_source(SCRIPT.read_text(), SCRIPT.name, "tf1compat")
    said = [f.line for f in findings if f.rule == "numpy1-scalars"]
    assert said == [20, 22, 23, 23]
    (tmp_path / "migrated.py").write_text(migrated)
    plain = subprocess.run([sys.executable, "migrated.py"], capture_output=True, text=True,
                           cwd=str(tmp_path), env=python_env(), timeout=budget(120))
    assert plain.returncode == 0, plain.stderr[-3000:]
    # trained numbers: within the corpus's tolerances (oneDNN and CPUs differ in last digits)
    comparison = compare(expected.stdout, plain.stdout)
    assert comparison.ok, comparison.report()
    under_run = run_cli("run", str(SCRIPT), cwd=tmp_path)
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    comparison = compare(expected.stdout, under_run.stdout)
    assert comparison.ok, comparison.report()


def test_only_names_bound_to_fetches_alone_and_numeric_conversions_change():
    source = ("import tensorflow as tf\n"
              "w = sess.run(W)\n"
              "other = 2.0\n"
              "other = sess.run(W)\n"
              "print('%s %r %f' % (w, w, w))\n"
              "print('%f' % other, float(other), float(w, ), int(w=3))\n"
              "print('%*d' % (4, w), '%(a)f' % {'a': w}, '%f %f' % (w,))\n")
    migrated, findings = migrate_source(source, "script.py", "tf1compat")
    assert "print('%s %r %f' % (w, w, w.item()))" in migrated
    assert "print('%f' % other, float(other), float(w.item(), ), int(w=3))" in migrated
    assert "print('%*d' % (4, w), '%(a)f' % {'a': w}, '%f %f' % (w,))" in migrated
    assert all(f.kind is Kind.CHANGED for f in findings if f.rule == "numpy1-scalars")
