"""TF1 calls whose TF 2 namesake gives another result (tf.image.resize_images, which
tf_upgrade_v2 renames to tf.image.resize; tf.while_loop and tf.cond over one tensor in a list;
tf.nn.ctc_beam_search_decoder's merging): after migrate, TF 1.15's results, as under run."""

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

SCRIPT = Path(__file__).resolve().parent / "scripts" / "tf2_differences.py"


def _same_numbers(printed: str, expected: str) -> None:
    comparison = compare(expected, printed, rtol=1e-5, atol=1e-4)
    assert comparison.ok, comparison.report()


def test_the_calls_give_tf115s_results_under_run_and_after_migrate(tmp_path):
    expected = recorded.run(str(tf1_reference.require()), [str(SCRIPT)], cwd=tmp_path,
                            env=tf1_reference.environment())
    assert expected.returncode == 0, expected.stderr[-3000:]
    assert "nearest code float32 (2, 7, 6, 3)" in expected.stdout
    assert "while_loop True 60" in expected.stdout and "cond True 4.5" in expected.stdout
    assert "ctc [[0, 1]]" in expected.stdout

    under_run = run_cli("run", str(SCRIPT), cwd=tmp_path)
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    _same_numbers(under_run.stdout, expected.stdout)

    migrated, findings = migrate_source(SCRIPT.read_text(), SCRIPT.name, "tf1compat")
    for tf2_call in ("tf.image.resize(", "tf.while_loop(", "tf.cond(",
                     "tf.nn.ctc_beam_search_decoder("):  # TF 2's functions are never written
        assert tf2_call not in migrated, tf2_call
    said = [f.message for f in findings if f.rule == "v1-differences"]
    assert any("half-pixel centers" in message for message in said)
    assert any("list of one tensor" in message for message in said)
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED]
    (tmp_path / "migrated.py").write_text(migrated)
    plain = subprocess.run([sys.executable, "migrated.py"], capture_output=True, text=True,
                           cwd=str(tmp_path), env=python_env(), timeout=budget(120))
    assert plain.returncode == 0, plain.stderr[-3000:]
    _same_numbers(plain.stdout, expected.stdout)


def test_tf115s_other_name_of_resize_images_and_compat_v1_spellings():
    migrated, findings = migrate_source(
        "import tensorflow as tf\n"
        "a = tf.image.resize(x, [4, 4], method=tf.image.ResizeMethod.BILINEAR)\n"
        "b = tf.compat.v1.cond(p, f, g)\n", "script.py", "tf1compat")
    assert "a = tf.compat.v1.image.resize(x, [4, 4], method=tf.compat.v1.image.ResizeMethod." \
           "BILINEAR)" in migrated
    assert "b = tf.compat.v1.cond(p, f, g)" in migrated
    said = {f.line: f.message for f in findings if f.rule == "v1-differences"}
    assert sorted(said) == [2]  # the compat.v1 spelling is already TF 1.15's: not reported
