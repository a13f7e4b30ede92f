"""`tf1compat compare --tf1-python PATH --migrated-tf2 --script SCRIPT`: the corpus script
layers_model.py (Glorot-initialized Dense layers trained by Adam) under TF 1.15 and as its
`migrate --to tf2` rewrite, both from the TF1 run's initial checkpoint. TF 1.15's side (its
printed numbers and the checkpoint it wrote) comes from its record (tf1_reference/recorded)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from isolated import run_cli
from tf1_reference import recorded
from tf1compat.compare.script import format_outcome
from tf1compat.compare.migrated_tf2 import compare_migrated_tf2

CORPUS = Path(__file__).resolve().parents[1] / "legacy_scripts"


def recorded_tf1(command, cwd, env, timeout):
    """The TF1 side from its record; the checkpoint folder (after --save) is what it writes."""
    return recorded.run(command[0], command[1:], cwd=cwd, env=env, timeout=timeout,
                        outputs=[str(Path(command[3]).parent)])


def test_the_tf2_rewrite_matches_tf115_from_the_same_initial_checkpoint(
        tmp_path, monkeypatch, tf1_python):
    folder = tmp_path / "work"
    folder.mkdir()
    shutil.copy(CORPUS / "layers_model.py", folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    outcome, comparisons = compare_migrated_tf2(folder / "layers_model.py", [], tf1_python,
                                                None, 1e-4, 1e-6, 300, runner=recorded_tf1)
    assert outcome["ok"], outcome
    assert outcome["sides"]["tf2"]["converted"]  # no compat.v1 or tf1compat left
    # the loss after 20 Adam steps, and the count of variables; without the checkpoint
    # the Glorot draws differ and the loss is 0.454 under TF2 against TF 1.15's 0.362
    assert [(a.expected, a.actual) for a in comparisons["tf2"].agreements] == [
        ("0.362", "0.362"), ("4", "4")]


def test_a_tf_layers_cnn_rewritten_to_keras_layers_matches_tf115(tmp_path, monkeypatch,
                                                                  tf1_python):
    """tf.layers' conv2d, max_pooling2d, flatten and dense become Keras layers named as TF1
    named them, tf.losses' sparse cross-entropy the mean of tf.nn's, Adam Keras' with TF1's
    epsilon; started from the TF1 run's checkpoint (the Conv2D built from its kernel's
    shape), the loss after 15 steps and the accuracy are TF 1.15's."""
    folder = tmp_path / "work"
    folder.mkdir()
    shutil.copy(Path(__file__).parent / "scripts" / "cnn_layers.py", folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    outcome, comparisons = compare_migrated_tf2(folder / "cnn_layers.py", [], tf1_python,
                                                None, 1e-4, 1e-6, 300, runner=recorded_tf1)
    assert outcome["ok"], outcome
    assert outcome["sides"]["tf2"]["converted"]
    agreements = [(a.expected, a.actual) for a in comparisons["tf2"].agreements]
    assert len(agreements) == 3 and agreements[2] == ("4", "4"), agreements
    assert all(expected == actual for expected, actual in agreements), agreements


def test_layers_built_in_a_loop_from_hparams_match_tf115(tmp_path, monkeypatch, tf1_python):
    """hparams_model.py: Dense layers made in a `for` over the hyper-parameters, the
    optimizer picked from a table by name (Momentum here), the variables listed before any
    run, a feed dict kept in a name. The TF2 rewrite, started from the TF1 run's checkpoint,
    prints TF 1.15's variable names and shapes and its losses before and after 12 steps."""
    folder = tmp_path / "work"
    folder.mkdir()
    shutil.copy(CORPUS / "hparams_model.py", folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    arguments = ["--hparams", "learning_rate=0.05,hidden=[6,4],activation=tanh,"
                 "train_steps=12,optimizer=momentum,use_bias=false"]
    outcome, comparisons = compare_migrated_tf2(folder / "hparams_model.py", arguments,
                                                tf1_python, None, 1e-4, 1e-6, 300,
                                                runner=recorded_tf1)
    assert outcome["ok"], outcome
    assert outcome["sides"]["tf2"]["converted"]
    agreements = [(a.expected, a.actual) for a in comparisons["tf2"].agreements]
    assert all(expected == actual for expected, actual in agreements), agreements
    assert ("5.31471", "5.31471") in agreements and ("1.32001", "1.32001") in agreements


@pytest.mark.no_rewritten_ops
def test_bad_input_names_the_option_and_the_value(tmp_path):
    (tmp_path / "script.py").write_text("print(1)\n")
    absent = run_cli("compare", "--tf1-python", "/bin/sh", "--migrated-tf2",
                     "--init-checkpoint", str(tmp_path / "model.ckpt-7"), "--script",
                     str(tmp_path / "script.py"))
    assert absent.returncode == 2 and f"--init-checkpoint {tmp_path / 'model.ckpt-7'}: no " \
        f"{tmp_path / 'model.ckpt-7'}.index" in absent.stderr
    alone = run_cli("compare", "--tf1-python", "/bin/sh", "--init-checkpoint", "x",
                    "--script", str(tmp_path / "script.py"))
    assert alone.returncode == 2 and "--init-checkpoint x goes with --migrated-tf2" \
        in alone.stderr
    both = run_cli("compare", "--tf1-python", "/bin/sh", "--migrated", "--migrated-tf2",
                   "--script", str(tmp_path / "script.py"))
    assert both.returncode == 2 and "--migrated and --migrated-tf2: give one" in both.stderr


_OTHER_NAMES_CHECKPOINT = """\
import sys
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
tf.compat.v1.Variable(tf.ones([3]), name="scope/v")
with tf.compat.v1.Session() as sess:
    sess.run(tf.compat.v1.global_variables_initializer())
    tf.compat.v1.train.Saver().save(sess, sys.argv[1])
"""


@pytest.mark.no_rewritten_ops
def test_a_checkpoint_of_other_names_is_reported_with_the_file_and_the_names(tmp_path,
                                                                              monkeypatch):
    """The TF2 side starts from --init-checkpoint; a checkpoint whose names are not the
    program's fails that side with one line naming the file and both sets of names."""

    prefix = tmp_path / "other" / "model.ckpt-0"
    subprocess.run([sys.executable, "-c", _OTHER_NAMES_CHECKPOINT, str(prefix)], check=True,
                   capture_output=True, timeout=300)
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "script.py").write_text(
        "import tensorflow as tf\nw = tf.Variable(tf.zeros([2]), name='w')\n"
        "total = tf.reduce_sum(w * 3.0)\nwith tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    print('total:', sess.run(total))\n")
    monkeypatch.chdir(folder)

    def tf1_restored(command, cwd, env, timeout):  # TF 1.15 side: not the one under test
        assert command[2:4] == ["--restore", str(prefix)]
        return subprocess.CompletedProcess(command, 0, "total: 3.0\n", "")

    outcome, comparisons = compare_migrated_tf2(folder / "script.py", [], Path("/bin/sh"),
                                                str(prefix), 1e-4, 1e-6, 300,
                                                runner=tf1_restored)
    assert not outcome["ok"] and outcome["result"] == "failed" and not comparisons
    error = outcome["sides"]["tf2"]["error"]
    assert error.startswith(f"exit 1: CheckpointMismatchError: TF1 checkpoint {prefix} does "
                            "not match the program's variables by TF1 name")
    assert "missing from the checkpoint: w;" in error
    assert "in the checkpoint, not in the program: scope/v" in error
    report = format_outcome(outcome, comparisons)
    assert f"  tf2: FAILED: {error}\n" in report and "Traceback" not in report
