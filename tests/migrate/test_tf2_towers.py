"""`migrate --to tf2` for multi-tower training as TF1's multi-GPU examples wrote it: a tower
function that makes its variables with `tf.get_variable` (made once, shared by the towers),
towers in a loop under `tf.device` and `tf.name_scope` that append `compute_gradients` and
losses to lists, averaged gradients applied with `apply_gradients`, the one
`tf.Graph().as_default()`, and `tf.get_variable` read back under `reuse=True`."""

import textwrap

import numpy as np
import pytest

from tf1compat.migrate.tf2.pipeline import to_tf2
from tf1compat.migrate.tf2.translate import Unconvertible

TOWERS = """\
    import numpy as np
    import tensorflow as tf

    rng = np.random.RandomState(3)
    features = rng.rand(8, 2).astype("float32")
    targets = features.dot(np.array([[2.0], [-1.0]], dtype="float32")) + 0.5


    def tower_loss(x, y):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.25))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))


    def average(tower_grads):  # each variable's gradient, averaged over the towers
        return [(tf.add_n([g for g, _ in pairs]) / len(pairs), pairs[0][1])
                for pairs in zip(*tower_grads)]


    def train():
        with tf.Graph().as_default(), tf.device("/cpu:0"):
            optimizer = tf.train.GradientDescentOptimizer(0.2)
            xs = tf.split(tf.constant(features), 2)
            ys = tf.split(tf.constant(targets), 2)
            tower_grads, losses = [], []
            with tf.variable_scope(tf.get_variable_scope()):
                for i in range(2):
                    with tf.device("/cpu:%d" % i), tf.name_scope("tower_%d" % i):
                        loss = tower_loss(xs[i], ys[i])
                        tf.get_variable_scope().reuse_variables()
                        tower_grads.append(optimizer.compute_gradients(loss))
                        losses.append(loss)
            train_op = optimizer.apply_gradients(average(tower_grads))
            mean_loss = tf.add_n(losses) / 2
            sess = tf.Session()
            sess.run(tf.global_variables_initializer())
            values = []
            for _ in range(5):
                _, value = sess.run([train_op, mean_loss])
                values.append(value)
            with tf.variable_scope("", reuse=True):
                weights = sess.run(tf.get_variable("w"))
            return values, weights
    """


def tf2(source: str) -> str:
    return to_tf2(textwrap.dedent(source))[0]


def _numpy_towers(steps=5):
    """The same training in NumPy: each tower's MSE gradient on its half, averaged."""
    rng = np.random.RandomState(3)
    x = rng.rand(8, 2).astype("float64")
    y = x.dot(np.array([[2.0], [-1.0]])) + 0.5
    w, b = np.full((2, 1), 0.25), np.zeros(1)
    losses = []
    for _ in range(steps):
        grads, tower_losses = [], []
        for part in (slice(0, 4), slice(4, 8)):
            error = x[part] @ w + b - y[part]
            tower_losses.append(np.mean(error ** 2))
            grads.append((2 * x[part].T @ error / 4, 2 * error.mean(0)))
        losses.append(np.mean(tower_losses))
        w = w - 0.2 * np.mean([g[0] for g in grads], axis=0)
        b = b - 0.2 * np.mean([g[1] for g in grads], axis=0)
    return losses, w


def test_towers_share_variables_made_once_and_apply_averaged_gradients():
    out = tf2(TOWERS)
    code = out.split("def train():", 1)[1]
    # the tower function's variables: made once in the block, module names it reads
    assert "global w, b\n" in code
    assert 'w = tf.Variable(tf.keras.initializers.Constant(0.25)([2, 1]), name="w")' in code
    assert "tf.get_variable" not in out and "variable_scope" not in out and "Graph" not in out
    assert "with tf.device(\"/cpu:%d\" % i), tf.name_scope(\"tower_%d\" % i):\n" in code
    assert "with tf.GradientTape() as tape:\n" in code
    assert "tower_grads.append(list(zip(tape.gradient(loss, variables), variables)))" in code
    assert "optimizer.apply_gradients(average(tower_grads))" in code
    assert "tower_grads, losses = [], []" not in out  # the function makes them, each run
    assert "compat" not in out and "Session" not in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    values, weights = namespace["train"]()
    losses, expected = _numpy_towers()
    np.testing.assert_allclose(values, losses, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(weights, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("old, new, reason", [
    # a second pass without reuse: TF1 raises "Variable w already exists"
    ("                    tf.get_variable_scope().reuse_variables()\n", "",
     "does not turn reuse on after it"),
    ("tower_grads, losses = [], []\n", "tower_grads, losses = [], [1]\n",
     "not made empty in this block before the loop"),
    ("optimizer.compute_gradients(loss)", "optimizer.compute_gradients(loss, var_list=[])",
     "arguments besides the loss"),
    ('tf.name_scope("tower_%d" % i)', 'tf.name_scope(None, "tower")', "takes the name alone"),
    ('tf.get_variable("w"))', 'tf.get_variable("v"))',
     "no variable of that TF1 name made in this block"),
    ("def train():\n", "with tf.Graph().as_default():\n    pass\n\n\ndef train():\n",
     "a second tf.Graph()"),
    ("        tower_grads, losses = [], []\n",
     "        tower_grads, losses = [], []\n        first = tower_loss(xs[0], ys[0])\n",
     "called again without reuse"),
    ("        with tf.variable_scope(tf.get_variable_scope()):\n",
     '        with tf.variable_scope("model"):\n',
     r"called inside tf.variable_scope\('model'\)"),
])
def test_tower_code_without_a_tf2_form_is_reported(old, new, reason):
    source = textwrap.dedent(TOWERS)
    assert source.count(old) == 1
    with pytest.raises(Unconvertible, match=reason):
        to_tf2(source.replace(old, new))
