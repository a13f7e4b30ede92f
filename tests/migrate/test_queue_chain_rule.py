"""The queue-chain rule as before/after strings: what it rewrites, and what it leaves (and why).

The input is what tf_upgrade_v2 leaves (tf.compat.v1 names), as the driver gives it.
"""

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from tf1compat.migrate.driver import apply_rules
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.queue_chain import QueueChainRule

HEAD = "import tensorflow as tf\n\n"
PRODUCER = 'q = tf.compat.v1.train.string_input_producer([path], num_epochs=1, shuffle=False)\n'
READER = "reader = tf.compat.v1.TextLineReader(skip_header_lines=1)\n"
READ = "_, line = reader.read(q)\n"
DECODE = "x, y, label = tf.io.decode_csv(line, record_defaults=[[0], [0.0], [0]])\n"
BATCH = ("xs, ys, labels = tf.compat.v1.train.batch([x, y, label], batch_size=4, "
         "allow_smaller_final_batch=True)\n")
LOOP = """with tf.compat.v1.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)
    try:
        while not coord.should_stop():
            print(sess.run([xs, ys, labels]))
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
    coord.join(threads)
"""
CONVERTED_LOOP = LOOP.replace("tf.compat.v1.train.start_queue_runners", "_rows.start_queue_runners")
IMPORT = "from tf1compat.input_pipeline import input_pipeline\n"
SCRIPT = HEAD + PRODUCER + READER + READ + DECODE + BATCH + LOOP


def run_rule(code, target="tf1compat"):
    rule = QueueChainRule(CodemodContext(), target=target)
    migrated = rule.transform_module(cst.parse_module(code)).code
    return migrated, [f for f in rule.findings if f.rule == "queue-chain"]


def refused(code, *reason_parts, line=None):
    """Asserts the chain is left as is and reported (with its line) for a reason."""
    migrated, findings = run_rule(code)
    assert migrated == code
    assert findings and all(f.kind is Kind.NOT_CONVERTED for f in findings), findings
    messages = " | ".join(f.message for f in findings)
    for part in reason_parts:
        assert part in messages, messages
    if line is not None:
        assert line in [f.line for f in findings], findings
    return findings


class Converted(CodemodTest):
    TRANSFORM = QueueChainRule

    def test_the_batch_chain_becomes_one_input_pipeline_call(self):
        after = ("import tensorflow as tf\n" + IMPORT + "\n"
                 "_rows = input_pipeline([path], [[0], [0.0], [0]], header_lines=1, num_epochs=1, "
                 "shuffle=False, batch_size=4)\n"
                 "xs, ys, labels = _rows.tensors\n" + CONVERTED_LOOP)
        self.assertCodemod(SCRIPT, after)
        _, [finding] = run_rule(SCRIPT)
        assert finding.kind is Kind.CHANGED and finding.line == 3
        assert "lines 3-10" in finding.message and "InputFileError" in finding.message
        assert "the batch tensors are _rows.tensors (line 7)" in finding.message

    def test_modern_target_writes_the_same_call(self):
        tf1compat, _ = run_rule(SCRIPT)
        modern, [finding] = run_rule(SCRIPT, target="modern")
        assert modern == tf1compat and finding.kind is Kind.CHANGED

    def test_tf1_defaults_and_options_are_written_out(self):
        # num_epochs defaults to None (forever) in TF1, a full last batch is the default, and
        # one file needs no shuffle=False: its order cannot change
        before = HEAD + (
            "q = tf.compat.v1.train.string_input_producer(['a.csv'])\n"
            "reader = tf.compat.v1.TextLineReader()\n"
            "key, line = reader.read(q)\n"
            "cols = tf.compat.v1.decode_csv(line, [[1], [''], [-2.5]], field_delim=';',\n"
            "                               na_value='NA', select_cols=[0, 2, 5],\n"
            "                               use_quote_delim=False)\n"
            "batch = tf.compat.v1.train.batch(cols, 16, num_threads=1, capacity=64)\n"
            "tf.compat.v1.train.start_queue_runners(sess, coord)\n")
        after = ("import tensorflow as tf\n" + IMPORT + "\n"
                 "_rows = input_pipeline(['a.csv'], [[1], [''], [-2.5]], field_delim=';', "
                 "select_cols=[0, 2, 5], na_value='NA', use_quote_delim=False, num_epochs=None, "
                 "shuffle=False, batch_size=16, drop_remainder=True)\n"
                 "batch = list(_rows.tensors)\n"
                 "_rows.start_queue_runners(sess, coord)\n")
        self.assertCodemod(before, after)

    def test_a_chain_without_batch_reads_one_record_per_run(self):
        before = HEAD + PRODUCER + READER + READ + DECODE + (
            "coord = tf.train.Coordinator()\n"
            "threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)\n"
            "print(sess.run([x, y]), sess.run(label))\n")
        after = ("import tensorflow as tf\n" + IMPORT + "\n"
                 "_rows = input_pipeline([path], [[0], [0.0], [0]], header_lines=1, num_epochs=1, "
                 'shuffle=False, read="record")\n'
                 "x, y, label = _rows.tensors\n"
                 "coord = tf.train.Coordinator()\n"
                 "threads = _rows.start_queue_runners(sess=sess, coord=coord)\n"
                 "print(sess.run([x, y]), sess.run(label))\n")
        self.assertCodemod(before, after)

    def test_in_a_function_with_module_constants_and_comments_kept(self):
        before = (HEAD + "BATCH = 8\nEPOCHS = 2\n\n\ndef train(files, sess):\n"
                  "    # the input\n"
                  "    q = tf.compat.v1.train.string_input_producer(files, num_epochs=EPOCHS,\n"
                  "                                                 shuffle=False)\n"
                  "    # one line at a time\n"
                  "    reader = tf.compat.v1.TextLineReader()  # no header\n"
                  "    _, line = reader.read(q)\n"
                  "    a, b = tf.io.decode_csv(line, [[0], ['']])\n"
                  "    a_batch, b_batch = tf.compat.v1.train.batch([a, b], BATCH,\n"
                  "                                                allow_smaller_final_batch=False)\n"
                  "    coord = tf.train.Coordinator()\n"
                  "    threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)\n"
                  "    return sess.run(a_batch)\n")
        after = ("import tensorflow as tf\n" + IMPORT + "\nBATCH = 8\nEPOCHS = 2\n\n\n"
                 "def train(files, sess):\n"
                 "    # the input\n"
                 "    _rows = input_pipeline(files, [[0], ['']], num_epochs=EPOCHS, shuffle=False, "
                 "batch_size=BATCH, drop_remainder=True)\n"
                 "    # one line at a time\n"
                 "    # no header\n"
                 "    a_batch, b_batch = _rows.tensors\n"
                 "    coord = tf.train.Coordinator()\n"
                 "    threads = _rows.start_queue_runners(sess=sess, coord=coord)\n"
                 "    return sess.run(a_batch)\n")
        self.assertCodemod(before, after)

    def test_names_already_taken_are_not_shadowed(self):
        before = ("import tensorflow as tf\n\n\ndef input_pipeline():\n    _rows = 1\n\n\n"
                  + PRODUCER + READER + READ + DECODE + BATCH
                  + "threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)\n")
        migrated, [finding] = run_rule(before)
        assert finding.kind is Kind.CHANGED
        assert "import tf1compat.input_pipeline\n" in migrated
        assert ("_rows2 = tf1compat.input_pipeline.input_pipeline([path], [[0], [0.0], [0]], "
                "header_lines=1, num_epochs=1, shuffle=False, batch_size=4)\n"
                "xs, ys, labels = _rows2.tensors\n"
                "threads = _rows2.start_queue_runners(sess=sess, coord=coord)\n") in migrated
        assert "def input_pipeline():\n    _rows = 1\n" in migrated


def test_a_shuffled_file_order_becomes_shuffle_files():
    # string_input_producer shuffles by default: a new file order each epoch, rows in order
    code = SCRIPT.replace("[path], num_epochs=1, shuffle=False", "files, num_epochs=1")
    migrated, [finding] = run_rule(code)
    assert finding.kind is Kind.CHANGED
    assert ("_rows = input_pipeline(files, [[0], [0.0], [0]], header_lines=1, num_epochs=1, "
            "shuffle=False, shuffle_files=True, batch_size=4)\n") in migrated
    seeded = SCRIPT.replace("[path], num_epochs=1, shuffle=False", "[a, b], shuffle=True, seed=5")
    migrated, _ = run_rule(seeded)
    assert ("input_pipeline([a, b], [[0], [0.0], [0]], header_lines=1, num_epochs=None, "
            "shuffle=False, shuffle_files=True, seed=5, batch_size=4)") in migrated
    refused(SCRIPT.replace("[path], num_epochs=1, shuffle=False", "[a, b], shuffle=True, seed=S"),
            "seed=S is computed")


def test_shuffle_batch_and_threads_are_refused_with_every_reason():
    code = SCRIPT.replace("shuffle=False", "shuffle=True").replace("[path]", "files").replace(
        "tf.compat.v1.train.batch([x, y, label], batch_size=4, allow_smaller_final_batch=True)",
        "tf.compat.v1.train.shuffle_batch([x, y, label], batch_size=6, capacity=50,\n"
        "    min_after_dequeue=10, num_threads=4, seed=6)")
    findings = refused(code,
                       "shuffle_batch mixes the rows through a RandomShuffleQueue with 4 threads")
    assert [f.line for f in findings] == [7]
    threads = SCRIPT.replace("batch_size=4,", "batch_size=4, num_threads=2,")
    refused(threads, "train.batch(num_threads=2) runs 2 threads", line=7)


def test_a_literal_bound_after_the_producer_line_is_written_into_the_call():
    # the pipeline is built at the producer line, before `B = 4` and `DEFAULTS = ...` run
    code = SCRIPT.replace("batch_size=4", "batch_size=B").replace(
        "[[0], [0.0], [0]]", "DEFAULTS").replace(READER, READER + "B = 4\n"
                                                   "DEFAULTS = [[0], [0.0], [0]]\n")
    migrated, [finding] = run_rule(code)
    assert finding.kind is Kind.CHANGED
    assert ("_rows = input_pipeline([path], [[0], [0.0], [0]], header_lines=1, num_epochs=1, "
            "shuffle=False, batch_size=4)\n") in migrated
    assert "B = 4\nDEFAULTS = [[0], [0.0], [0]]\n" in migrated


def test_values_that_cannot_be_proven_are_refused():
    refused(SCRIPT.replace("batch_size=4", "batch_size=FLAGS.batch_size"),
            "batch_size=FLAGS.batch_size is computed", line=7)
    bound_twice = "B = 4\nB = 8\n" + SCRIPT.replace("batch_size=4", "batch_size=B")
    refused(bound_twice, "batch_size=B is computed")
    refused(SCRIPT.replace("allow_smaller_final_batch=True", "allow_smaller_final_batch=small"),
            "allow_smaller_final_batch=small is computed")
    refused(SCRIPT.replace("num_epochs=1", "num_epochs=epochs"), "num_epochs=epochs is computed")
    refused(SCRIPT.replace("[[0], [0.0], [0]]", "defaults"), "record_defaults=defaults is computed")
    refused(SCRIPT.replace("[[0], [0.0], [0]]", "[[0], tf.constant([], tf.float32), [0]]"),
            "record_defaults=")
    refused(SCRIPT.replace("[[0], [0.0], [0]]", "[[0], [0.0], [2 ** 40]]"), "record_defaults")
    refused(SCRIPT.replace("[[0], [0.0], [0]]", "[[0], [0.0], [4294967296]]"),
            "not one literal default per column")


def test_parts_of_the_chain_used_elsewhere_are_refused():
    refused(SCRIPT.replace("_, line", "key, line") + "print(key)\n",
            "the reader's keys (key) are used")
    refused(SCRIPT + "print(sess.run(x))\n", "a decoded column (x) is used elsewhere (line 19)")
    refused(SCRIPT.replace(READ, READ + "_, other = reader.read(q)\n"),
            "the reader (reader) is used elsewhere")
    refused(SCRIPT + "size = q.size()\n", "the filename queue (q) is used elsewhere")
    refused(SCRIPT.replace(READ, READ + "line = tf.strings.strip(line)\n"),
            "the line read (line) is bound more than once")
    refused(SCRIPT.replace("[x, y, label], batch_size", "[y, x, label], batch_size"),
            "does not take the decoded columns as they are, in their order")
    refused(SCRIPT.replace("reader.read(q)", "reader.read_up_to(q, 100)"),
            "reader.read_up_to(...) is not rewritten")
    refused(SCRIPT.replace("_, line = reader.read(q)", "record = reader.read(q)")
            .replace("decode_csv(line", "decode_csv(record.value"), "not unpacked as `key, line")


def test_shapes_scopes_and_several_chains_are_refused():
    refused(SCRIPT + PRODUCER + READER + READ + DECODE, "several chains in one file")
    refused(SCRIPT.replace(READER, "if True:\n    " + READER), "not in one block")
    refused(SCRIPT.replace("_, line = reader.read(q)",
                           "_, line = tf.compat.v1.TextLineReader().read(q)").replace(READER, ""),
            "TextLineReader(...) is not assigned on a line of its own")
    refused(SCRIPT.replace("[path]", "tf.io.match_filenames_once('*.csv')"),
            "the file list comes from tf.io.match_filenames_once (a tensor)")
    matched = SCRIPT.replace(PRODUCER, "names = tf.compat.v1.train.match_filenames_once('*.csv')\n"
                             + PRODUCER.replace("[path]", "names"))
    refused(matched, "the file list comes from tf.train.match_filenames_once")
    refused(SCRIPT.replace("batch_size=4,", "batch_size=4, enqueue_many=True,"),
            "train.batch(enqueue_many=True) is not rewritten")
    refused(SCRIPT.replace("tf.compat.v1.train.batch", "tf.compat.v1.train.batch_join"),
            "tf.train.batch_join is not rewritten")


def test_how_the_queues_are_started_is_checked():
    refused(SCRIPT.replace("threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)",
                           "threads = []"), "no tf.train.start_queue_runners call", line=3)
    refused(SCRIPT.replace("(sess=sess, coord=coord)", "(sess=sess)"),
            "has no Coordinator (coord=)", line=10)
    refused(SCRIPT + "tf.compat.v1.train.start_queue_runners(sess, coord)\n",
            "start_queue_runners is called 2 times")
    in_function = (HEAD + "def build():\n" + "".join(
        "    " + s for s in (PRODUCER, READER, READ, DECODE, BATCH)) + "    return xs\n\n\n"
        "def run(sess, coord):\n"
        "    return tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)\n")
    refused(in_function, "outside the function that builds the chain")


def test_one_record_per_run_next_to_other_queues_is_refused():
    code = (HEAD + PRODUCER + READER + READ + DECODE
            + "other = tf.compat.v1.train.slice_input_producer([values])\n"
            + "threads = tf.compat.v1.train.start_queue_runners(sess=sess, coord=coord)\n")
    refused(code, "read one per run, and the file also uses tf.train.slice_input_producer")


def test_after_tf_upgrade_v2_and_the_other_rules():
    migrated, findings = apply_rules(SCRIPT, "tf1compat")
    assert "string_input_producer" not in migrated and "TextLineReader" not in migrated
    assert IMPORT in migrated and "disable_v2_behavior()" in migrated
    assert [f.kind for f in findings if f.rule == "queue-chain"] == [Kind.CHANGED]
    assert not [f for f in findings if f.rule == "no-tf2-path"]  # nothing of the chain is left
    again, _ = apply_rules(migrated, "tf1compat")
    assert again == migrated
