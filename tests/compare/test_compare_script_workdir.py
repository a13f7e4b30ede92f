"""`tf1compat compare --script` where the user stands: each side reads the user's files by
the same relative paths, writes only into its own copy of the folder (listed in the report),
gets the arguments after the script unchanged, and a failure shows its exception line."""

import json
import os
import textwrap

import pytest

from isolated import run_cli

SCRIPT_ARGV = ["--device=cpu", "--dev", "1", "--rep", "3", "--over", "--user-root", "x",
               "--help"]

# A queue pipeline over data.csv and a Saver, both by relative paths.
CSV_AND_CHECKPOINT = textwrap.dedent('''
    import json, os, sys
    import tensorflow as tf
    print("argv", json.dumps(sys.argv[1:]))
    print("big", os.path.getsize("inputs/big.bin"))
    queue = tf.train.string_input_producer(["data.csv"], shuffle=False, num_epochs=1)
    _, line = tf.TextLineReader().read(queue)
    a, b = tf.decode_csv(line, [[0.0], [0.0]])
    batch = tf.train.batch([a, b], 2)
    w = tf.get_variable("w", [], initializer=tf.constant_initializer(0.5))
    total = tf.reduce_sum(batch[0] * w + batch[1])
    saver = tf.train.Saver([w])
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        print("totals %.3f %.3f" % (sess.run(total), sess.run(total)))
        coord.request_stop()
        coord.join(threads)
        print("saved", saver.save(sess, os.path.join(os.getcwd(), "ckpt", "model")))
    with open("data.csv", "a") as log:  # a copied input rewritten: only the side's copy
        log.write("9.0,9.0\\n")
    ''')

READS_A_MISSING_CSV = textwrap.dedent('''
    import tensorflow as tf
    queue = tf.train.string_input_producer(["missing.csv"], num_epochs=1)
    _, line = tf.TextLineReader().read(queue)
    batch = tf.train.batch(tf.decode_csv(line, [[0.0], [0.0]]), 2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        tf.train.start_queue_runners(sess, tf.train.Coordinator())  # closes the queue
        print(sess.run(batch))
    ''')


def user_folder(tmp_path):
    folder = tmp_path / "project"
    (folder / "inputs").mkdir(parents=True)
    (folder / "data.csv").write_text("1.0,2.0\n3.0,4.0\n5.0,6.0\n7.0,8.0\n")
    (folder / "inputs" / "big.bin").write_bytes(os.urandom(3 << 20))  # linked, not copied
    return folder


def listing(folder):
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*"))}


def compare_in(folder, tf1_python, *args):
    return run_cli("compare", "--json", "--timeout", "200", "--tf1-python", str(tf1_python),
                   "--script",
                   "train.py", *args, cwd=folder, timeout=600,
                   env={"TMPDIR": str(folder.parent)})  # the kept copies go with the test


@pytest.mark.tf1_reference
def test_relative_inputs_and_checkpoints_agree_and_leave_the_folder_unchanged(tmp_path,
                                                                            tf1_python):
    folder = user_folder(tmp_path)
    (folder / "train.py").write_text(CSV_AND_CHECKPOINT)
    before = listing(folder)
    result = compare_in(folder, tf1_python, *SCRIPT_ARGV)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert listing(folder) == before
    outcome = json.loads(result.stdout)
    assert outcome["result"] == "same" and outcome["cwd"] == str(folder)
    for side in ("tf1", "run"):
        printed = outcome["sides"][side]["printed"].splitlines()
        assert printed[0] == "argv " + json.dumps(SCRIPT_ARGV)
        assert printed[1:3] == [f"big {3 << 20}", "totals 8.000 20.000"]
        assert printed[3] == f"saved {folder / 'ckpt' / 'model'}"  # the copy shown as cwd
        assert outcome["sides"][side]["written"] == [
            "ckpt/checkpoint", "ckpt/model.data-00000-of-00001", "ckpt/model.index",
            "ckpt/model.meta", "data.csv"]
        assert os.path.dirname(outcome["kept_in"]) == str(tmp_path)
        kept = os.path.join(outcome["kept_in"], side)
        assert open(os.path.join(kept, "data.csv")).read().endswith("7.0,8.0\n9.0,9.0\n")
        assert os.path.islink(os.path.join(kept, "inputs", "big.bin"))
    # the numbers of the argv, big and totals lines (the saved line's path has whatever
    # digits the temporary folder's name has)
    agreed = [entry["expected"] for entry in outcome["comparisons"]["run"]["agreements"]
              if entry["line"] <= 3]
    assert agreed == ["1", "3", str(3 << 20), "8.000", "20.000"], agreed


@pytest.mark.tf1_reference
@pytest.mark.no_rewritten_ops
def test_a_failure_shows_its_exception_line_and_both_failed_is_its_own_result(tmp_path,
                                                                             tf1_python):
    folder = user_folder(tmp_path)
    (folder / "train.py").write_text(READS_A_MISSING_CSV)
    result = compare_in(folder, tf1_python)
    assert result.returncode == 1, result.stderr[-3000:]
    outcome = json.loads(result.stdout)
    assert outcome["result"] == "both failed" and outcome["kept_in"] is None
    for side in ("tf1", "run"):
        error = outcome["sides"][side]["error"]
        assert error.startswith("exit 1: ") and "Original stack trace" not in error
        assert error.split(": ", 1)[1].startswith(("NotFoundError: ", "OutOfRangeError: ")), \
            error
    table = run_cli("compare", "--timeout", "200", "--tf1-python", str(tf1_python),
                    "--script", "train.py", cwd=folder, timeout=600,
                    env={"TMPDIR": str(folder.parent)})
    assert table.returncode == 1
    assert table.stdout.splitlines()[-1] == "result: both failed"
    assert "  run: FAILED: exit 1: " in table.stdout and "Traceback" not in table.stdout
