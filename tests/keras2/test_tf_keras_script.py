"""TF1's tf.keras three ways: TF 1.15 (recorded), `tf1compat run`, `migrate` then plain Python.

TF 1.15's `tf.keras` was Keras 2 (sessions, `lr=`/`decay=` optimizers, v1 initializers);
under `run` it is tf_keras's TF1 API, and migrate writes the script's `tf.keras` names as
that API, so the migrated script trains in its TF1 session under plain Python too. The
three print the same numbers (tf1compat.compare.printed_numbers, the corpus's tolerances).
"""


import pytest

from isolated import run_cli
from keras2 import reference
from tf1compat.compare.printed_numbers import compare

SCRIPT = reference.SCRIPTS / "tf_keras_session.py"


@pytest.mark.rewrites
def test_a_tf_keras_script_prints_tf115s_numbers_under_run_and_after_migrate(
        tf1_python, tmp_path):
    expected = reference.printed(reference.run(tf1_python, [SCRIPT], outputs=[]).stdout)
    assert expected.count("\n") == 2, expected

    under_run = run_cli("run", "--no-report", str(SCRIPT))
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    comparison = compare(expected, reference.printed(under_run.stdout))
    assert comparison.ok, comparison.report()

    from tf1compat.migrate.driver import migrate_source

    migrated, findings = migrate_source(SCRIPT.read_text(), SCRIPT.name, "tf1compat")
    code = migrated.split('"""')[-1]  # after the script's docstring, which names tf.keras
    assert "tf.keras" not in code and "tensorflow.keras" not in code, migrated
    assert any(f.rule == "tf-keras" for f in findings), findings
    comparison = compare(expected, reference.printed(reference.run_migrated(migrated, tmp_path)))
    assert comparison.ok, comparison.report()
