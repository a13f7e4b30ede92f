"""Names whose TF 2.21 signatures differ from TF 1.15's, called the TF 1.15 way by position and
keyword, against TF 1.15's own records: under `run` (which serves TF 1.15's parameters,
`tf1compat.runner.tf115_signatures`) and after `migrate` (which writes keywords).

Each call below would bind otherwise on TF 2.21: Conv2D's `groups` sits where TF 1.15 had
`activation`, LSTM has no `implementation` (position 17), `tensor_scatter_update` and
`sparse_concat` take `name` elsewhere, `contrib.framework.load_variable`'s `checkpoint_dir`
is `tf.train.load_variable`'s `ckpt_dir_or_file`, contrib's `variable` defaulted to TF 1.15's
VariableAggregation. Classes served with TF 1.15's parameters stay the classes Keras makes
itself (a layer read back from JSON is still a `tf.keras.layers.Conv2D`), and subclass as
TF 1.15's did.
"""

from contrib.three_ways import assert_close, three_ways

SCRIPT = """
import json
import os
import shutil
import tempfile
import numpy as np
import tensorflow as tf


def result(name, value):
    print("RESULT " + json.dumps([name, value]))


images = tf.constant(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 32.0 - 0.5)
# TF 2.21's Conv2D takes `groups` where TF 1.15 took `activation`
conv = tf.keras.layers.Conv2D(3, 2, 1, "same", "channels_last", (1, 1), "relu", True, "ones")
convolved = conv(images)
sequence = tf.constant(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(1, 4, 3))
# TF 2.21's LSTM lacks `implementation` (position 17): return_sequences would land there
lstm = tf.keras.layers.LSTM(2, "tanh", "sigmoid", True, "ones", "zeros", "zeros", True, None,
                            None, None, None, None, None, None, 0.0, 0.0, 1, True)
sequences = lstm(sequence)
scattered = tf.tensor_scatter_update(tf.zeros([4]), [[1], [3]], [5.0, 7.0], "scatter_at_name")
ids = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
joined = tf.sparse_concat(1, [ids, ids], "concat_at_name")
words = tf.strings.split(["a b", "c"])
dense = tf.contrib.layers.linear(tf.ones([2, 3]), 2, weights_initializer=tf.ones_initializer())
with tf.contrib.framework.arg_scope([tf.contrib.layers.fully_connected], activation_fn=tf.nn.relu):
    scoped = tf.contrib.layers.linear(-tf.ones([2, 3]), 2, scope="scoped",
                                      weights_initializer=tf.ones_initializer())
variable = tf.contrib.framework.variable("plain", shape=[2], initializer=tf.zeros_initializer())
workdir = tempfile.mkdtemp()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    path = tf.train.Saver({"w": variable}).save(sess, os.path.join(workdir, "model.ckpt"))
    result("conv", sess.run(convolved).round(5).tolist())
    result("lstm", sess.run(sequences).round(5).tolist())
    result("scatter", [scattered.op.name, sess.run(scattered).tolist()])
    concatenated = sess.run(joined)
    result("sparse_concat", [joined.indices.op.name.split("/")[0], concatenated.indices.tolist(),
                             concatenated.dense_shape.tolist()])
    result("strings.split", [type(words).__name__, [w.decode() for w in sess.run(words).values.tolist()]])
    result("linear", [sess.run(dense).tolist(), sess.run(scoped).tolist()])
result("aggregation", str(variable.aggregation))
result("load_variable", [tf.train.load_variable(workdir, "w").tolist(),
                         tf.contrib.framework.load_variable(checkpoint_dir=workdir,
                                                            name="w").tolist(),
                         [name for name, _ in tf.train.list_variables(workdir)]])
# Classes are still the classes: a layer Keras made itself is one, and subclasses work.
model = tf.keras.Sequential([tf.keras.layers.Conv2D(2, 1, input_shape=(4, 4, 2))])
restored = tf.keras.models.model_from_json(model.to_json())  # Keras makes this Conv2D itself


class Wide(tf.keras.layers.Conv2D):
    def __init__(self, **kwargs):
        super(Wide, self).__init__(4, 1, **kwargs)


wide = Wide(name="wide")
result("classes", [isinstance(restored.layers[0], tf.keras.layers.Conv2D),
                   restored.layers[0].get_config()["filters"],
                   isinstance(wide, tf.keras.layers.Conv2D), isinstance(conv, Wide),
                   type(conv).__name__, wide.filters, wide.name])
shutil.rmtree(workdir)
"""


def test_tf115_calls_of_changed_signatures_give_tf115_results(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    assert [name for name, _ in expected] == [
        "conv", "lstm", "scatter", "sparse_concat", "strings.split", "linear", "aggregation",
        "load_variable", "classes"]
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")
