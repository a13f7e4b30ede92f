"""TF 1.15 names that TF 2.21's TF1 API lacks, and imports whose globals do not name the
script: under `run`, after `migrate` (plain Python) and under TF 1.15 itself.

- `tf.pywrap_tensorflow.NewCheckpointReader` and `tf.config.experimental_list_devices()`
  (runner/shim.py, contrib/spellings.py; migrate's gone-names rule);
- `exec(source, {})`, `__import__("tensorflow")`, `importlib.import_module("tensorflow")`
  (runner/import_callers.py).
"""

import subprocess
import sys
from pathlib import Path

import tf1_reference
from budgets import budget
from isolated import python_env, run_cli
from tf1_reference import recorded
from tf1compat.migrate.driver import migrate_source
from tf1compat.migrate.findings import Kind

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def _tf115(script: Path, cwd: Path) -> str:
    expected = recorded.run(str(tf1_reference.require()), [str(script)], cwd=cwd,
                            env=tf1_reference.environment())
    assert expected.returncode == 0, expected.stderr[-3000:]
    return expected.stdout


def test_gone_names_print_the_same_under_run_and_migrated(tmp_path):
    script = SCRIPTS / "gone_names.py"
    expected = _tf115(script, tmp_path)
    assert "checkpoint [2] [1.5, 2.5]" in expected and "cpu listed True" in expected
    result = run_cli("run", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == expected
    assert "replaced: tf.config.experimental_list_devices -> " \
           "tf1compat.contrib.eager.list_devices" in result.stderr

    migrated, findings = migrate_source(script.read_text(), script.name, "tf1compat")
    code = migrated.split('"""', 2)[2]  # after the docstring, which names them
    assert "pywrap_tensorflow" not in code and "experimental_list_devices" not in code
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED]
    (tmp_path / "migrated.py").write_text(migrated)
    plain = subprocess.run([sys.executable, "migrated.py"], capture_output=True, text=True,
                           cwd=str(tmp_path), env=python_env(), timeout=budget(120))
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert plain.stdout == expected


def test_migrate_reports_a_gone_name_it_cannot_serve():
    source = ("import tensorflow as tf\n"
              "aggregator = tf.data.experimental.StatsAggregator()\n")
    migrated, findings = migrate_source(source, "script.py", "tf1compat")
    left = {f.line: f.message for f in findings if f.kind is Kind.NOT_CONVERTED}
    assert "tf.data.experimental.StatsAggregator left as is: TF 1.15 had it" in left[2]
    assert "tf.data.experimental.StatsAggregator()" in migrated


def test_migrate_writes_tf1s_own_module_as_run_serves_it_where_no_public_name_stands():
    source = ("import tensorflow as tf\n"
              "module = tf.pywrap_tensorflow\n"
              "reader = tf.pywrap_tensorflow.NewCheckpointReader\n")
    migrated, findings = migrate_source(source, "script.py", "tf1compat")
    assert "module = tf1compat.tf1_module('tensorflow.python.pywrap_tensorflow')\n" in migrated
    assert "reader = tf.compat.v1.train.NewCheckpointReader\n" in migrated
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED]
    import tf1compat  # what the migrated line calls (not the script: it leaves graph mode on)

    module = tf1compat.tf1_module("tensorflow.python.pywrap_tensorflow")
    assert callable(module.NewCheckpointReader)


def test_imports_without_the_script_s_globals_get_tf1_under_run(tmp_path):
    script = SCRIPTS / "import_callers.py"
    expected = _tf115(script, tmp_path)
    assert expected.count("True") == 8 and "a TF1 graph [2.0, 5.0]" in expected
    result = run_cli("run", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == expected
