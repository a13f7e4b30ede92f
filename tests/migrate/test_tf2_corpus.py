"""`migrate --to tf2 --write` on the corpus scripts it converts fully, then plain python:
what they print matches TF 1.15 (`expected/NAME.out`, number by number), and the file
imports tensorflow, modern and absl only."""

import sys
from pathlib import Path

import pytest

from tf1compat.cli.main import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "legacy_scripts"))
import corpus  # noqa: E402

# Their initial values are deterministic (zeros, constants, numpy; queue_csv_reader has no
# variables), so no checkpoint is needed for TF 2 to start where TF 1.15 did (layers_model.py's
# and hparams_model.py's are not: their compares start both from one checkpoint,
# tests/compare/test_compare_migrated_tf2.py).
CONVERTED = ("config_constructor.py", "config_attributes.py", "two_gpu_towers.py",
             "app_flags.py", "interactive_session.py", "eager_linear_regression.py",
             "mnist_softmax.py", "flags_shared.py", "queue_csv_reader.py",
             "multi_tower_training.py")
CASES = {case.script: case for case in corpus.CASES}


@pytest.mark.rewrites
@pytest.mark.parametrize("script", CONVERTED)
def test_converted_script_prints_what_tf115_printed(script, tmp_path, capsys):
    case = CASES[script]
    folder = tmp_path / "script"
    corpus.copy_case(case, folder)
    assert main(["migrate", "--to", "tf2", "--write",
                 *(str(folder / name) for name in case.files)]) == 0
    capsys.readouterr()
    for name in case.files:  # the script and the modules next to it that it imports
        code = (folder / name).read_text().split('"""', 2)[-1]  # past the docstring
        assert "compat.v1" not in code and "tf1compat" not in code and "Session" not in code
    result = corpus.run_plain(case, folder, tmp_path / "scratch")
    assert result.returncode == 0, result.stderr[-2000:]
    comparison = corpus.compare(case, result.stdout)
    assert comparison.ok, comparison.report()


def test_bad_input_is_reported_and_nothing_is_written(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("import tensorflow as tf\nx = (\n")
    left = tmp_path / "saver.py"
    source = ("import tensorflow as tf\nv = tf.Variable(1.0)\nsaver = tf.train.Saver()\n"
              "with tf.Session() as sess:\n    saver.save(sess, 'model.ckpt')\n")
    left.write_text(source)
    code = main(["migrate", "--to", "tf2", str(broken), str(left)])
    out = capsys.readouterr().out
    assert code == 1  # the file that does not parse
    assert f"{broken}:2: error: syntax error" in out
    assert f"{left}:3: not converted: not converted to TF2 (tf.train.Saver has no --to tf2 " \
           "rule); the file got the --to tf1compat output" in out
    assert left.read_text() == source and "nothing written (use --write)" in out
