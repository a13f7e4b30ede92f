"""`tf1compat compare --script` as a user runs it: their TF1 script under the TF 1.15 reference
and under tf1compat, compared number by number (agreement, a planted difference, a failing
side, bad input)."""

import json
import textwrap

import pytest

from isolated import run_cli
from tf1compat.compare import printed_numbers
from tf1compat.compare.script import format_outcome

TRAINING = textwrap.dedent('''
    import sys
    import numpy as np
    import tensorflow as tf

    steps = int(sys.argv[1])
    tf.set_random_seed(3)
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2) / 10.0)
    y = tf.constant([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
    w = tf.get_variable("w", [2, 1], initializer=tf.random_normal_initializer(seed=1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(steps):
            _, value = sess.run([train, loss])
        print("steps: %d loss: %.6f" % (steps, value))
        print("w:", np.round(sess.run(w).ravel(), 5).tolist())
    with open(sys.argv[2], "w") as out:  # each side writes into its own copy of the folder
        out.write("done")
    print("wrote", sys.argv[2])
    ''')

# The planted difference: the numbers depend on which TensorFlow runs the script.
DIFFERS = textwrap.dedent('''
    import tensorflow as tf
    major = int(tf.__version__.split(".")[0])
    print("major:", major)
    print("scale: %.4f" % (1.0 if major == 1 else 1.01))
    print("same: %.3f" % 0.5)
    ''')

FAILS_OUTSIDE_TF1 = textwrap.dedent('''
    import tensorflow as tf
    print("started")
    if not tf.__version__.startswith("1."):
        raise RuntimeError("this script refuses to run outside TensorFlow 1")
    print("finished")
    ''')


def compare(tmp_path, source, *args, options=(), python=None):
    """`compare --json OPTIONS --script script.py ARGS`, run from tmp_path."""
    script = tmp_path / "script.py"
    script.write_text(source)
    return run_cli("compare", "--json", *options,
                   *(["--tf1-python", str(python)] if python else []), "--script",
                   "script.py", *args, timeout=600, cwd=tmp_path,
                   env={"TMPDIR": str(tmp_path)})  # the copies a side wrote into are kept


@pytest.mark.tf1_reference
def test_a_script_that_agrees(tmp_path, tf1_python):
    result = compare(tmp_path, TRAINING, "25", "marker.txt", options=["--migrated"],
                     python=tf1_python)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    outcome = json.loads(result.stdout)
    assert outcome["ok"] and sorted(outcome["sides"]) == ["migrated", "run", "tf1"]
    assert outcome["sides"]["tf1"]["printed"].splitlines()[-1] == "wrote marker.txt"
    assert all(side["written"] == ["marker.txt"] for side in outcome["sides"].values())
    assert not (tmp_path / "marker.txt").exists()
    for side in ("run", "migrated"):
        comparison = outcome["comparisons"][side]
        assert comparison["ok"] and comparison["differences"] == []
        assert len(comparison["agreements"]) == 4  # 25, the loss, two weights
    assert outcome["args"] == ["25", "marker.txt"] and outcome["result"] == "same"


@pytest.mark.tf1_reference
@pytest.mark.no_rewritten_ops
def test_a_planted_difference_is_reported_and_exits_1(tmp_path, tf1_python):
    result = compare(tmp_path, DIFFERS, options=["--rtol", "1e-3"], python=tf1_python)
    assert result.returncode == 1, result.stderr[-3000:]
    outcome = json.loads(result.stdout)
    differences = outcome["comparisons"]["run"]["differences"]
    assert [(d["line"], d["kind"]) for d in differences] == [(1, "number"), (2, "number")]
    assert "2 where 1 was printed (integers must be equal)" in differences[0]["detail"]
    assert "1.0100 where 1.0000 was printed" in differences[1]["detail"]
    assert [a["expected"] for a in outcome["comparisons"]["run"]["agreements"]] == ["0.500"]
    assert outcome["rtol"] == 1e-3
    assert outcome["result"] == "different"
    # The table a user sees without --json, from the same sides' printed text (at the
    # default tolerances): no second run of both TensorFlows.
    comparisons = {"run": printed_numbers.compare(outcome["sides"]["tf1"]["printed"],
                                                  outcome["sides"]["run"]["printed"])}
    table = format_outcome(outcome, comparisons)
    assert "run: DIFFERS: 1 number(s) agree within rtol=0.0001 atol=1e-06; 2 difference(s)" \
        in table and "result: DIFFERENT" in table


@pytest.mark.tf1_reference
@pytest.mark.no_rewritten_ops
def test_a_script_failing_on_one_side(tmp_path, tf1_python):
    result = compare(tmp_path, FAILS_OUTSIDE_TF1, python=tf1_python)
    assert result.returncode == 1
    outcome = json.loads(result.stdout)
    assert outcome["sides"]["tf1"]["ok"] and outcome["sides"]["tf1"]["printed"] == \
        "started\nfinished\n"
    run = outcome["sides"]["run"]
    assert not run["ok"] and run["exit_code"] == 1
    assert run["error"] == "exit 1: RuntimeError: this script refuses to run outside " \
        "TensorFlow 1"
    assert outcome["comparisons"] == {} and outcome["result"] == "failed"


@pytest.mark.no_rewritten_ops
def test_bad_input_names_the_option(tmp_path):
    (tmp_path / "script.py").write_text("print(1)\n")
    missing = run_cli("compare", "--script", str(tmp_path / "script.py"))
    assert missing.returncode == 2 and "--script needs --tf1-python PATH" in missing.stderr
    late = run_cli("compare", "--script", str(tmp_path / "script.py"), "--tf1-python", "py")
    assert late.returncode == 2 and "the --tf1-python after the script is the script's own " \
        "argument: put compare's options before --script" in late.stderr
    wrong = run_cli("compare", "--tf1-python", str(tmp_path / "nope"), "--script",
                    str(tmp_path / "script.py"))
    assert wrong.returncode == 2 and f"--tf1-python {tmp_path / 'nope'}: not an executable" \
        in wrong.stderr
    absent = run_cli("compare", "--tf1-python", "/bin/sh", "--script", str(tmp_path / "x.py"))
    assert absent.returncode == 2 and f"--script {tmp_path / 'x.py'}: no such script" \
        in absent.stderr
    stray = run_cli("compare", "--migrated", "--only", "mlp")
    assert stray.returncode == 2 and "--migrated goes with --script SCRIPT" in stray.stderr
