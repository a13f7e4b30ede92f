"""contrib.eager (`import tensorflow.contrib.eager as tfe`) against TensorFlow 1.15.

TF 1.15's own `import tensorflow.contrib.eager as tfe` gives an empty package
(the subpackage import hides `tf.contrib.eager`); the scripts here read
`tf.contrib.eager` and the deep path, as TF 1.15 serves them.

Each script runs three ways (TF 1.15, `tf1compat run`, after `migrate`); the
values, gradients and errors it prints must agree.
"""

from .three_ways import assert_close, three_ways

_ATTEMPT = r"""
def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as error:
        return [type(error).__name__]
"""

EAGER = r"""
import json
import os
import tempfile
import numpy as np
import tensorflow as tf

tfe = tf.contrib.eager  # read before the deep import below, which (in TF 1.15) hides it
from tensorflow.contrib.eager.python import tfe as deep_tfe

tfe.enable_eager_execution()
""" + _ATTEMPT + r"""
out = {"eager": [tfe.executing_eagerly(), tfe.in_eager_mode(), tf.executing_eagerly()],
       "deep_path_is_same": [deep_tfe.Variable is tfe.Variable,
                             deep_tfe.implicit_gradients is tfe.implicit_gradients]}
W = tfe.Variable(0.5, name="w")
b = tfe.Variable(0.1, name="b")
out["variable"] = [float(W.numpy()), W.trainable, W.dtype.name]
xs = np.array([1., 2., 3., 4.], np.float32)
ys = 2 * xs + 1

def loss(x, y):
    return tf.reduce_mean(tf.square(W * x + b - y))

out["implicit_gradients"] = [float(g.numpy()) for g, _ in tfe.implicit_gradients(loss)(xs, ys)]
value, pairs = tfe.implicit_value_and_gradients(loss)(xs, ys)
out["implicit_value_and_gradients"] = [float(value.numpy()), [float(g.numpy()) for g, _ in pairs]]

def f(x, y):
    return x * x * y

out["gradients_function"] = [float(g.numpy()) for g in tfe.gradients_function(f)(3., 2.)]
value, grads = tfe.value_and_gradients_function(f)(3., 2.)
out["value_and_gradients_function"] = [float(value.numpy()), [float(g.numpy()) for g in grads]]
x = tf.constant(3.0)
with tfe.GradientTape() as tape:
    tape.watch(x)
    y = x * x * x
out["tape"] = float(tape.gradient(y, x).numpy())

@tfe.defun
def square_sum(t):
    return tf.reduce_sum(t * t)

out["defun"] = float(square_sum(tf.constant([1., 2., 3.])).numpy())
out["function"] = float(tfe.function(lambda t: t + 1.)(tf.constant(1.)).numpy())
out["py_func"] = float(tfe.py_func(lambda t: t * 2, [tf.constant(3.)], tf.float32).numpy())

@tfe.custom_gradient
def clipped(t):
    def grad(dy):
        return dy * 10.
    return tf.identity(t), grad

with tfe.GradientTape() as tape:
    tape.watch(x)
    y = clipped(x)
out["custom_gradient"] = float(tape.gradient(y, x).numpy())

scale = tfe.make_template("scale", lambda t: t * tf.get_variable(
    "k", [], initializer=tf.constant_initializer(3.)))
out["make_template"] = [float(scale(tf.constant(2.)).numpy()), float(scale(tf.constant(5.)).numpy()),
                        len(scale.variables)]
dataset = tf.data.Dataset.range(5).map(lambda v: v * 2)
iterator = tfe.Iterator(dataset)
first = [int(iterator.next().numpy()), int(iterator.get_next().numpy())]
out["iterator"] = [first, [int(v.numpy()) for v in iterator], attempt(lambda: iterator.next())]
out["iterator_batches"] = [v.numpy().tolist() for v in tfe.Iterator(
    tf.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32)).batch(4))]
out["num_gpus"] = tfe.num_gpus()
out["cpu_listed"] = any(name.endswith("device:CPU:0") for name in tfe.list_devices())

mean = tfe.metrics.Mean()
returned = mean([1., 2., 3.])
mean(4.)
out["mean"] = [float(returned.numpy()), float(mean.result().numpy()), mean.result().dtype.name,
               mean.name, len(mean.variables)]
weighted = tfe.metrics.Mean("weighted", dtype=tf.float32)
weighted([1., 5.], weights=[3., 1.])
out["weighted_mean"] = [float(weighted.result().numpy()), weighted.result().dtype.name]
mean.init_variables()
mean(10.)
out["mean_after_reset"] = float(mean.result().numpy())
accuracy = tfe.metrics.Accuracy()
accuracy([1, 2, 3, 4], [0, 2, 3, 4])
sparse = tfe.metrics.SparseAccuracy()
sparse([1, 0], [[0.1, 0.9], [0.2, 0.8]])
categorical = tfe.metrics.CategoricalAccuracy()
categorical([[0., 1.], [1., 0.], [0., 1.]], [[0.3, 0.7], [0.6, 0.4], [0.9, 0.1]])
binary = tfe.metrics.BinaryAccuracy(threshold=0.5)
binary([1., 0., 1., 1.], [0.7, 0.2, 0.4, 0.9])
out["accuracies"] = [float(m.result().numpy()) for m in (accuracy, sparse, categorical, binary)]
out["accuracy_shape_error"] = attempt(lambda: tfe.metrics.Accuracy()([1, 2], [1, 2, 3]))

class Net(tfe.Network):
    def __init__(self):
        super(Net, self).__init__()
        self.hidden = self.track_layer(tf.layers.Dense(
            3, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.5),
            bias_initializer=tf.constant_initializer(0.1)))
        self.out = self.track_layer(tf.layers.Dense(
            1, kernel_initializer=tf.constant_initializer(-0.25)))

    def call(self, inputs):
        return self.out(self.hidden(inputs))

net = Net()
inputs = tf.constant([[1., 2.], [3., -4.]])
outputs = net(inputs)
optimizer = tf.train.GradientDescentOptimizer(0.1)
grad = tfe.implicit_gradients(lambda: tf.reduce_sum(tf.square(net(inputs) - 1.)))
optimizer.apply_gradients(grad())
momentum = tf.train.MomentumOptimizer(0.1, 0.9)
momentum.apply_gradients(grad())
slots = tfe.get_optimizer_variables(momentum)
out["optimizer_variables"] = [len(slots), sorted(v.shape.as_list() for v in slots),
                              sorted(float(v.numpy().sum()) for v in slots)]
out["network"] = [outputs.numpy().tolist(), len(net.variables), len(net.layers),
                  len(net.trainable_weights), net(inputs).numpy().tolist(),
                  attempt(lambda: net.track_layer("not a layer"))]
sequential = tfe.Sequential([tf.layers.Dense(2, kernel_initializer=tf.constant_initializer(1.)),
                             tf.nn.relu])
out["sequential"] = [sequential(tf.constant([[1., -3.]])).numpy().tolist(),
                     len(sequential.variables)]

directory = tempfile.mkdtemp()
checkpoint = tfe.Checkpoint(w=W, b=b)
path = checkpoint.save(os.path.join(directory, "ckpt"))
W.assign(9.)
checkpoint.restore(path)
out["checkpoint"] = [float(W.numpy()), os.path.basename(path)]
out["late_enable_again_is_fine"] = attempt(lambda: tfe.enable_eager_execution())
print("RESULT " + json.dumps(out, sort_keys=True))
"""

GRAPH = r"""
import json
import unittest
import tensorflow as tf

tfe = tf.contrib.eager
""" + _ATTEMPT + r"""
out = {"eager_at_start": tfe.executing_eagerly()}
modes = []

class Modes(tf.test.TestCase):
    @tfe.run_test_in_graph_and_eager_modes
    def test_modes(self):
        modes.append(tf.executing_eagerly())
        self.assertAllClose(self.evaluate(tf.constant(2.) * 3.), 6.)

suite = unittest.TestLoader().loadTestsFromTestCase(Modes)
result = unittest.TextTestRunner(stream=open("/dev/null", "w")).run(suite)
out["run_test_in_graph_and_eager_modes"] = [modes, result.wasSuccessful()]
dataset = tf.data.Dataset.range(3)
out["iterator_in_graph"] = attempt(lambda: tfe.Iterator(dataset) and None)
values = tf.placeholder(tf.float32, [None])
mean = tfe.metrics.Mean()
update = mean(values)
result_tensor = mean.result()
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    sess.run(update, feed_dict={values: [1., 2.]})
    sess.run(update, feed_dict={values: [6.]})
    out["graph_mean"] = [float(sess.run(result_tensor)),
                         len(tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)),
                         len(tf.local_variables())]
out["late_enable"] = attempt(lambda: tfe.enable_eager_execution())
out["still_graph"] = tf.executing_eagerly()
print("RESULT " + json.dumps(out, sort_keys=True))
"""


def test_eager_names_behave_as_in_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, EAGER)
    assert len(expected) == 1
    assert expected[0]["eager"] == [True, True, True]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrated")


def test_graph_mode_side_of_contrib_eager_as_in_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, GRAPH)
    assert len(expected) == 1
    assert expected[0]["run_test_in_graph_and_eager_modes"] == [[False, True], True]
    assert expected[0]["late_enable"] == ["ValueError"]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrated")
