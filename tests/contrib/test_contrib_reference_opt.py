"""tf.contrib.opt's optimizers against TensorFlow 1.15's: the same seeded variables and data
give the same values after a few steps, with the same slot and accumulator variable names,
for dense gradients and sparse ones (embedding_lookup), on ref and resource variables; under
`run` and after `migrate`."""

import pytest

from .three_ways import assert_close, three_ways

OPTIMIZERS = r"""
import json
import numpy as np
import tensorflow as tf

opt = tf.contrib.opt
rng = np.random.RandomState(7)
table0 = rng.randn(6, 3).astype(np.float32)
dense0 = rng.randn(3, 2).astype(np.float32)
x = rng.randn(5, 3).astype(np.float32)
ids = np.array([1, 4, 1, 0], dtype=np.int32)  # row 1 twice: duplicate indices are summed
# The decoupled-decay optimizers decay a variable with no ordering against the reads of it that
# its gradient makes (TF 1.15's own race), so they train on a loss whose gradients are constants.
MAKERS = {
    "lazy_adam": (lambda: opt.LazyAdamOptimizer(0.1), "quadratic"),
    "nadam": (lambda: opt.NadamOptimizer(0.05, beta1=0.8), "quadratic"),
    "lars": (lambda: opt.LARSOptimizer(0.1, momentum=0.8, weight_decay=0.01, eeta=0.01),
             "quadratic"),
    "adamw": (lambda: opt.AdamWOptimizer(0.01, learning_rate=0.1), "linear"),
    "momentumw": (lambda: opt.MomentumWOptimizer(0.02, 0.1, 0.9, use_nesterov=True), "linear"),
    "sgdw": (lambda: opt.extend_with_decoupled_weight_decay(tf.train.GradientDescentOptimizer)(
        0.05, learning_rate=0.2), "linear"),
}
out = {}
for name in sorted(MAKERS):
    make, kind = MAKERS[name]
    for resource in (False, True):
        with tf.Graph().as_default():
            table = tf.get_variable("table", initializer=table0, use_resource=resource)
            dense = tf.get_variable("dense", initializer=dense0, use_resource=resource)
            rows = tf.nn.embedding_lookup(table, ids)  # a sparse gradient for table
            if kind == "quadratic":
                loss = tf.reduce_mean(tf.square(tf.matmul(rows, dense) - 1.0)) \
                    + 0.1 * tf.reduce_mean(tf.matmul(tf.constant(x), dense))
            else:
                loss = tf.reduce_sum(rows * tf.constant(x[:4])) + tf.reduce_sum(dense * dense0)
            step = tf.train.get_or_create_global_step()
            train = make().minimize(loss, global_step=step)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(4):
                    sess.run(train)
                values = {v.op.name: sess.run(v).tolist() for v in tf.global_variables()}
        out["%s/%s" % (name, "resource" if resource else "ref")] = values
print("RESULT " + json.dumps(out, sort_keys=True))
"""


@pytest.mark.rewrites
def test_contrib_opt_optimizers_update_as_tf_1_15s(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, OPTIMIZERS)
    reference = expected[0]
    assert sorted(reference["lazy_adam/ref"]) == [
        "beta1_power", "beta2_power", "dense", "dense/Adam", "dense/Adam_1", "global_step",
        "table", "table/Adam", "table/Adam_1"]
    assert "table/LARSOptimizer" in reference["lars/ref"]
    assert "dense/MomentumW" in reference["momentumw/resource"]
    lazy_m = reference["lazy_adam/ref"]["table/Adam"]  # rows never looked up keep m = 0
    assert lazy_m[2] == [0.0, 0.0, 0.0] and lazy_m[1] != [0.0, 0.0, 0.0]
    assert_close(reference, under_run[0], 1e-5, "run")
    assert_close(reference, migrated[0], 1e-5, "migrate")


def test_bad_hyper_parameters_and_unserved_names_are_named():
    import tf1compat.contrib as contrib
    from tf1compat.contrib.registry import ContribError

    with pytest.raises(ValueError, match="momentum should be positive: -1"):
        contrib.opt.LARSOptimizer(0.1, momentum=-1)
    with pytest.raises(TypeError, match="received base_optimizer=3"):
        contrib.opt.extend_with_decoupled_weight_decay(3)
    with pytest.raises(ContribError, match="opt.NoSuchOptimizer"):
        contrib.opt.NoSuchOptimizer  # noqa: B018
