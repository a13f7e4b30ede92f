"""Names whose parameters TF 2.21 moved or re-defaulted have TF 1.15's under `run`.

Held against the committed TF 1.15 data of the surface probe (each name's kind, parameter
order and defaults, as TF 1.15 itself reported them), and called the TF 1.x way: `name`
by position, the defaults left out, 0.x's initializer functions, `_sentinel`.
"""

import pytest

from isolated import run_json

NAMES = (
    "tf.matmul", "tf.linalg.matmul", "tf.shape", "tf.size", "tf.nn.top_k", "tf.math.top_k",
    "tf.scatter_nd", "tf.function", "tf.zeros_initializer", "tf.ones_initializer",
    "tf.nn.softmax_cross_entropy_with_logits", "tf.nn.sparse_softmax_cross_entropy_with_logits",
    "tf.nn.sigmoid_cross_entropy_with_logits", "tf.contrib.slim.conv2d",
    "tf.contrib.slim.fully_connected", "tf.contrib.layers.conv2d",
    "tf.contrib.layers.fully_connected", "tf.contrib.slim.separable_conv2d",
    "tf.contrib.slim.batch_norm", "tf.contrib.layers.xavier_initializer",
    "tf.contrib.layers.variance_scaling_initializer", "tf.contrib.slim.get_variables",
    "tf.estimator.Estimator", "tf.estimator.EstimatorSpec", "tf.estimator.RunConfig",
    "tf.contrib.tpu.TPUEstimator", "tf.contrib.tpu.RunConfig",
    "tf.contrib.seq2seq.dynamic_decode",
    "tensorflow.examples.tutorials.mnist.input_data:read_data_sets",
)

CALLS = '''
import inspect
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
x = tf.constant([[1., 2.], [3., 4.]])
product = tf.matmul(x, x, False, True, False, False, False, False, "by_position")
top = tf.nn.top_k(x, 1, True, "top_by_position")
scattered = tf.scatter_nd([[1]], [5.], [3], "scatter_by_position")
doubled = tf.function(lambda t: t * 2., None, True, None, True)(x)  # TF 1.15's order
zeros_class = tf.get_variable("zeros_class", [2], initializer=tf.zeros_initializer)
zeros_object = tf.get_variable("zeros_object", [2], initializer=tf.zeros_initializer())
ones_as_0x = tf.ones_initializer([2], tf.float32)
try:
    tf.nn.sparse_softmax_cross_entropy_with_logits(_sentinel=x, labels=[0, 1], logits=x)
    sentinel = "accepted"
except ValueError as error:
    sentinel = str(error)
loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=x)
images = tf.ones([1, 4, 4, 1])
from tensorflow.python import debug as tf_debug
debug_hook = tf_debug.LocalCLIDebugHook()
curses_hook = tf_debug.LocalCLIDebugHook(ui_type="curses")
conv = slim.conv2d(images, 2, [3, 3])
import os, tempfile
board_dir = tempfile.mkdtemp()
board = tf.compat.v2.keras.callbacks.TensorBoard(board_dir)  # in graph mode: tf_keras's v1
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
model.compile("sgd", "mse")
model.fit(np.ones((32, 3)), np.ones((32, 1)), batch_size=8, callbacks=[board], verbose=0)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    values = session.run({"product": product, "top": top.values, "scattered": scattered,
                          "doubled": doubled,
                          "zeros_class": zeros_class, "zeros_object": zeros_object,
                          "ones_as_0x": ones_as_0x, "loss": loss})
results = {
    "names": [product.op.name, top.values.op.name, scattered.op.name],
    "dtypes": [tf.shape(x).dtype.name, tf.size(x).dtype.name],
    "values": {key: np.asarray(value).tolist() for key, value in values.items()},
    "initializer_is_class": isinstance(tf.zeros_initializer(), tf.zeros_initializer),
    "sentinel": sentinel,
    "conv_activation": conv.op.type,
    "debug_ui": [debug_hook._ui_type, curses_hook._ui_type],  # what tfdbg will be asked for
    "debug_default": str(inspect.signature(tf_debug.LocalCLIDebugHook).parameters["ui_type"]),
    "profiled": sorted(name for _, _, files in os.walk(board_dir) for name in files
                       if name.endswith(".xplane.pb")),
}
'''

SOURCE = f'''
import json
from tf1compat.runner.user_view import open_view
from tf1compat.surface import compare, reading, reference, spelling

view = open_view()
data = reference.load()
verdicts = {{}}
for name in {NAMES!r}:
    source = "\\n".join([spelling.TF_HEADER, *spelling.statements(name, "value")])
    verdict = compare.compare(data.names[name], reading.describe(view.run(source)["value"]))
    verdicts[name] = [verdict.status, verdict.detail]
print(json.dumps({{"verdicts": verdicts, "calls": view.run({CALLS!r})["results"]}}))
'''


@pytest.fixture(scope="module")
def served():
    return run_json(SOURCE)


@pytest.mark.parametrize("name", NAMES)
def test_kind_order_and_defaults_are_tf115s(served, name):
    status, detail = served["verdicts"][name]
    assert status == "same", f"{name}: {status}: {detail}"


def test_name_by_position_reaches_name_and_results_are_tf2s(served):
    calls = served["calls"]
    assert calls["names"] == ["by_position", "top_by_position", "scatter_by_position"]
    assert calls["values"]["product"] == [[5.0, 11.0], [11.0, 25.0]]
    assert calls["values"]["top"] == [[2.0], [4.0]]
    assert calls["values"]["scattered"] == [0.0, 5.0, 0.0]
    assert calls["values"]["doubled"] == [[2.0, 4.0], [6.0, 8.0]]


def test_defaults_left_out_give_tf1s_behaviour(served):
    calls = served["calls"]
    assert calls["dtypes"] == ["int32", "int32"]
    assert calls["conv_activation"] == "Relu"  # slim.conv2d's default activation_fn
    assert calls["values"]["loss"] == pytest.approx([1.3132616, 0.3132617], rel=1e-5)


def test_initializers_are_classes_and_still_0x_functions(served):
    calls = served["calls"]
    assert calls["initializer_is_class"] is True
    assert calls["values"]["zeros_class"] == [0.0, 0.0]
    assert calls["values"]["zeros_object"] == [0.0, 0.0]
    assert calls["values"]["ones_as_0x"] == [1.0, 1.0]


def test_a_sentinel_argument_is_refused_as_tf1_refused_it(served):
    assert served["calls"]["sentinel"].startswith(
        "Only call `sparse_softmax_cross_entropy_with_logits` with named arguments")


def test_a_tf115_value_tf221_refuses_is_what_tf115_fell_back_to(served):
    # TF 1.15's LocalCLIDebugHook defaulted to the curses UI and fell back to readline where
    # curses could not load; TF 2.21's tfdbg has only readline ("Invalid ui_type: 'curses'"
    # at the first run): the signature keeps TF 1.15's default, the hook gets readline
    assert served["calls"]["debug_ui"] == ["readline", "readline"]
    assert served["calls"]["debug_default"] == "ui_type='curses'"


def test_the_v2_tensorboard_callback_profiles_batch_2_as_tf115s_did(served):
    # TF 1.15's default profile_batch=2, passed to a class that swaps its base in `__new__`
    # (tf_keras's TensorBoard becomes the v1 callback in graph mode): the stand-in's
    # `__init__` is the one of the class it became, and the trace of batch 2 is written
    assert len(served["calls"]["profiled"]) == 1
