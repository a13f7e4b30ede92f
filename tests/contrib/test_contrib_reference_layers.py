"""contrib.layers.layer_norm and the output-alias utilities against TensorFlow 1.15: the same
inputs and assigned variables give the same outputs, gradients, variable names and end points."""

import pytest

from .three_ways import assert_close, three_ways

LAYER_NORM = r"""
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers.python.layers import utils
import tensorflow.contrib.slim as slim

rng = np.random.RandomState(0)
x = tf.constant(rng.randn(2, 3, 4, 5).astype(np.float32))
y = tf.contrib.layers.layer_norm(x, outputs_collections="outs")
z_in = tf.constant((rng.randn(3, 6) * 4 + 2).astype(np.float32))
z = tf.contrib.layers.layer_norm(z_in, begin_norm_axis=-1, scale=False,
                                 activation_fn=tf.nn.relu, scope="ln2")
with slim.arg_scope([slim.layer_norm], begin_norm_axis=2, begin_params_axis=2):
    u = slim.layer_norm(x, scope="ln3", outputs_collections=["outs"])
weights = tf.constant(rng.randn(2, 3, 4, 5).astype(np.float32))
loss = tf.reduce_sum(y * weights) + tf.reduce_sum(z) + tf.reduce_sum(u * u)
variables = tf.global_variables()
grads = tf.gradients(loss, [x, z_in] + variables)
end_points = utils.convert_collection_to_dict("outs")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in variables:
        sess.run(v.assign(rng.randn(*v.shape.as_list()).astype(np.float32)))
    values = sess.run({"y": y, "z": z, "u": u, "grads": grads})
print("RESULT " + json.dumps({
    "y": values["y"].tolist(), "z": values["z"].tolist(), "u": values["u"].tolist(),
    "grads": [g.tolist() for g in values["grads"]],
    "variables": [[v.op.name, v.shape.as_list()] for v in variables],
    "model": [v.op.name for v in tf.model_variables()],
    "trainable": [v.op.name for v in tf.trainable_variables()],
    "end_points": list(end_points), "aliases": utils.get_tensor_aliases(u),
    "plain_alias": utils.get_tensor_aliases(z),
}, sort_keys=True))
"""


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_layer_norm_matches_tf_1_15(tmp_path, onednn):
    env = {"TF_ENABLE_ONEDNN_OPTS": onednn}
    expected, under_run, migrated = three_ways(tmp_path, LAYER_NORM, env)
    assert expected[0]["variables"][0] == ["LayerNorm/beta", [5]]
    assert expected[0]["end_points"] == ["LayerNorm", "ln3"]
    # float32 moments: a few ulps between TF 1.15's kernels and TF 2.21's (oneDNN or not)
    assert_close(expected, under_run, 1e-4, "run")
    assert_close(expected, migrated, 1e-4, "migrate")


SEPARABLE = r"""
import json
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim

rng = np.random.RandomState(1)
x = tf.constant(rng.randn(2, 6, 6, 3).astype(np.float32))
with slim.arg_scope([slim.separable_conv2d], depth_multiplier=2,
                    weights_regularizer=slim.l2_regularizer(0.01)):
    a = slim.separable_conv2d(x, 4, [3, 3], scope="sep", variables_collections=["mine"])
    b = slim.separable_convolution2d(x, None, 3, stride=2, padding="VALID", scope="dw",
                                     activation_fn=None)
    c = tf.contrib.layers.separable_conv2d(x, 5, 3, rate=2, normalizer_fn=slim.batch_norm,
                                           normalizer_params={"is_training": False},
                                           scope="sep_bn")
p = slim.softmax(tf.reshape(a, [2, 6, 6 * 4]))
loss = tf.reduce_sum(a * a) + tf.reduce_sum(b) + tf.reduce_sum(c * c) + tf.reduce_sum(p * p) \
    + tf.add_n(tf.losses.get_regularization_losses())
variables = tf.global_variables()
grads = tf.gradients(loss, [x] + tf.trainable_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in variables:
        sess.run(v.assign(rng.uniform(0.5, 1.5, v.shape.as_list()).astype(np.float32)))
    values = sess.run({"a": a, "b": b, "c": c, "p": p, "loss": loss, "grads": grads})
print("RESULT " + json.dumps({
    "a": values["a"].tolist(), "b": values["b"].tolist(), "c": values["c"].tolist(),
    "p": values["p"].tolist(), "loss": float(values["loss"]),
    "grads": [g.tolist() for g in values["grads"]],
    "variables": [[v.op.name, v.shape.as_list()] for v in variables],
    "model": [v.op.name for v in tf.model_variables()],
    "mine": [v.op.name for v in tf.get_collection("mine")],
    "regularized": len(tf.losses.get_regularization_losses()),
}, sort_keys=True))
"""


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_separable_conv2d_and_softmax_match_tf_1_15(tmp_path, onednn):
    env = {"TF_ENABLE_ONEDNN_OPTS": onednn}
    expected, under_run, migrated = three_ways(tmp_path, SEPARABLE, env)
    assert ["sep/depthwise_weights", [3, 3, 3, 2]] in expected[0]["variables"]
    assert_close(expected, under_run, 1e-4, "run")
    assert_close(expected, migrated, 1e-4, "migrate")
