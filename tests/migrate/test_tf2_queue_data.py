"""`migrate --to tf2` of CSV queue-reader chains: TF1 source in, TF2 source out (no
TensorFlow run); the converted corpus script runs in tests/migrate/test_tf2_corpus.py."""

import textwrap

import pytest

from tf1compat.migrate.driver import migrate_source_tf2
from tf1compat.migrate.tf2.pipeline import to_tf2

CHAIN = """\
    import tensorflow as tf
    queue = tf.train.string_input_producer({files}, num_epochs=1{producer})
    reader = tf.TextLineReader(skip_header_lines=1)
    _, line = reader.read(queue)
    x, y = tf.decode_csv(line, record_defaults=[[0], [0.0]])
    xs, ys = tf.train.batch([x, y], batch_size=4{batch})
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            while not coord.should_stop():
                {run}
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    """


def chain(producer=", shuffle=False", batch=", allow_smaller_final_batch=True",
          run="bx, by = sess.run([xs, ys])", files='["a.csv"]') -> str:
    return textwrap.dedent(CHAIN).format(producer=producer, batch=batch, run=run, files=files)


def test_a_queue_chain_becomes_modern_tf_data_pipeline_iterated_eagerly():
    out = to_tf2(chain())[0]
    assert "from modern.input_pipeline import input_pipeline\n" in out
    assert '_rows = input_pipeline(["a.csv"], [[0], [0.0]], header_lines=1, num_epochs=1, ' \
           'shuffle=False, batch_size=4)\n_rows_batches = iter(_rows.dataset)\n' in out
    assert "coord = tf.train.Coordinator()\nthreads = []  # tf.data reads in its iterator" in out
    assert "        bx, by = [value.numpy() for value in _rows_batches.get_next()]\n" in out
    assert "except tf.errors.OutOfRangeError:\n" in out and "coord.join(threads)\n" in out
    for gone in ("Session", "string_input_producer", "TextLineReader", "decode_csv", "train.batch",
                 "tf1compat", "compat.v1", "xs, ys ="):
        assert gone not in out


def test_without_allow_smaller_final_batch_the_last_short_batch_is_dropped():
    out = to_tf2(chain(batch=""))[0]
    assert "batch_size=4, drop_remainder=True)" in out


def test_a_run_kept_whole_is_one_list_of_arrays():
    out = to_tf2(chain(run="batch = sess.run([xs, ys])"))[0]
    assert "batch = [value.numpy() for value in _rows_batches.get_next()]" in out


def test_one_file_shuffled_by_the_producer_is_read_as_it_is():
    assert "shuffle_files" not in to_tf2(chain(producer=""))[0]  # one file: one order


@pytest.mark.parametrize("changes, line, reason", [
    (dict(producer="", files='["a.csv", "b.csv"]'), 2, "shuffled order (string_input_producer's default shuffle=True)"),
    (dict(run="bx = sess.run(xs)"), 11, "Session.run of a tf.data batch with other fetches"),
    (dict(run="by, bx = sess.run([ys, xs])"), 11, "not all its elements in order"),
    (dict(batch=", num_threads=2"), 6, "num_threads"),
])
def test_what_tf_data_cannot_keep_falls_back_with_line_and_reason(changes, line, reason):
    text, findings, converted = migrate_source_tf2(chain(**changes), "train.py")
    assert not converted
    [finding] = [f for f in findings if f.rule == "tf2"]
    assert finding.line == line and reason in finding.message, finding


def test_a_tensor_computed_from_the_batch_is_refused_not_guessed():
    source = chain(run="print(sess.run(total))").replace(
        "with tf.Session()", "total = tf.reduce_sum(xs)\nwith tf.Session()")
    text, findings, converted = migrate_source_tf2(source, "train.py")
    assert not converted
    [finding] = [f for f in findings if f.rule == "tf2"]
    assert finding.line == 7 and "computed from a tf.data batch" in finding.message


def test_one_shot_iterators_become_python_iterators_read_once_per_run():
    out = to_tf2(textwrap.dedent("""\
        import tensorflow as tf
        dataset = tf.data.Dataset.range(6).batch(2)
        iterator = dataset.make_one_shot_iterator()
        batch = iterator.get_next()
        numbers = tf.data.make_one_shot_iterator(tf.data.Dataset.range(3))
        a, = numbers.get_next()
        with tf.Session() as sess:
            print(sess.run(batch), sess.run(a))
        """))[0]
    assert "iterator = iter(dataset)\n" in out and \
        "numbers = iter(tf.data.Dataset.range(3))\n" in out
    assert "print(tf.nest.map_structure(lambda value: value.numpy(), iterator.get_next()), " \
           "numbers.get_next()[0].numpy())" in out
    assert "make_one_shot_iterator" not in out and "Session" not in out


def test_an_initializable_iterator_is_left_with_the_reason():
    source = ("import tensorflow as tf\nit = tf.data.Dataset.range(3)"
              ".make_initializable_iterator()\nx = it.get_next()\n"
              "with tf.Session() as sess:\n    sess.run(it.initializer)\n    print(sess.run(x))\n")
    text, findings, converted = migrate_source_tf2(source, "train.py")
    assert not converted
    [finding] = [f for f in findings if f.rule == "tf2"]
    assert finding.line == 2 and "initializable iterator" in finding.message
