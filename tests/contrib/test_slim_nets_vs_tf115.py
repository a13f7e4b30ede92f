"""slim.nets (served by the tf_slim library) against TensorFlow 1.15's contrib.slim.nets.

The published slim checkpoints restore by variable name, so vgg_16, resnet_v1_50 and
inception_v3 must build the same variables (names and shapes) and end_points; small nets with
every variable set to the same seeded values give the same outputs. Each through `run` and
after `migrate`, reached by attribute, import and deep module path as scripts wrote them."""

import importlib.util

import pytest

from .three_ways import assert_close, three_ways

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tf_slim") is None,
                                reason="tf_slim is not installed (pip install tf-slim)")

_SETUP = r"""
import json
import zlib
import numpy as np
import tensorflow as tf
from tensorflow.contrib.slim.nets import resnet_v1
from tensorflow.contrib.slim.python.slim.nets import resnet_utils
import tensorflow.contrib.slim.python.slim.nets.inception_v3 as inception_v3_module

slim = tf.contrib.slim
nets = slim.nets


def variables():
    return [[v.op.name, v.shape.as_list()] for v in tf.global_variables()]
"""

GRAPHS = _SETUP + r"""
out = {}
with tf.Graph().as_default():
    with slim.arg_scope(nets.vgg.vgg_arg_scope()):
        _, points = nets.vgg.vgg_16(tf.placeholder(tf.float32, [1, 224, 224, 3]))
    out["vgg_16"] = [variables(), sorted(points),
                     len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))]
with tf.Graph().as_default():
    with slim.arg_scope(resnet_v1.resnet_arg_scope()):
        net, points = resnet_v1.resnet_v1_50(tf.placeholder(tf.float32, [1, 224, 224, 3]), 10)
        # the script's own layer on top, under the net's arg_scope (batch norm, L2)
        logits = slim.conv2d(net, 5, [1, 1], scope="head")
    out["resnet_v1_50"] = [variables(), sorted(points), len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)),
                           len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))]
with tf.Graph().as_default():
    with slim.arg_scope(nets.inception.inception_v3_arg_scope()):
        _, points = inception_v3_module.inception_v3(tf.placeholder(tf.float32, [1, 299, 299, 3]),
                                                     num_classes=7, is_training=False)
    out["inception_v3"] = [variables(), sorted(points)]
with tf.Graph().as_default():
    # the script's scope on its own slim layers reaches the net's layers
    with slim.arg_scope([slim.conv2d], normalizer_fn=slim.batch_norm):
        _, points = nets.alexnet.alexnet_v2(tf.placeholder(tf.float32, [1, 224, 224, 3]))
    _, more = nets.overfeat.overfeat(tf.placeholder(tf.float32, [1, 231, 231, 3]))
    out["alexnet_overfeat"] = [variables(), sorted(points), sorted(more)]
print("RESULT " + json.dumps(out, sort_keys=True))
"""

OUTPUTS = _SETUP + r"""


def seeded(sess):
    for v in tf.global_variables():  # the same values by name on both sides
        rng = np.random.RandomState(zlib.crc32(v.op.name.encode()) % (2 ** 31))
        shape = v.shape.as_list()
        if v.op.name.endswith("moving_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        else:
            value = rng.normal(0.0, 0.2, shape)
        sess.run(v.initializer, {v.initial_value: value.astype(np.float32)})


images = np.random.RandomState(0).uniform(-1, 1, [2, 32, 32, 3]).astype(np.float32)
out = {}
for version, blocks in (("v1", resnet_v1.resnet_v1_block), ("v2", nets.resnet_v2.resnet_v2_block)):
    module = resnet_v1 if version == "v1" else nets.resnet_v2
    with tf.Graph().as_default():
        with slim.arg_scope(module.resnet_arg_scope()):
            net, points = getattr(module, "resnet_" + version)(
                tf.constant(images), [blocks("block1", base_depth=4, num_units=2, stride=2),
                                      blocks("block2", base_depth=8, num_units=1, stride=1)],
                num_classes=3, is_training=False, scope="tiny_" + version)
        with tf.Session() as sess:
            seeded(sess)
            value, pooled = sess.run([net, points["tiny_%s/block2" % version]])
        out[version] = [value.tolist(), float(np.abs(pooled).sum()), variables()]
with tf.Graph().as_default():
    net, points = nets.inception.inception_v2_base(tf.constant(images), final_endpoint="Mixed_3b",
                                                   depth_multiplier=0.25)
    same = resnet_utils.conv2d_same(net, 4, 3, stride=2, scope="same")
    with tf.Session() as sess:
        seeded(sess)
        value, mixed = sess.run([same, points["Mixed_3b"]])
    out["inception_v2"] = [value.tolist(), float(np.abs(mixed).sum()), sorted(points)]
print("RESULT " + json.dumps(out, sort_keys=True))
"""


def test_the_published_nets_build_tf_1_15s_variables_and_end_points(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, GRAPHS)
    vgg = expected[0]["vgg_16"]
    assert ["vgg_16/conv1/conv1_1/weights", [3, 3, 3, 64]] in vgg[0] and vgg[2] == 16
    resnet = expected[0]["resnet_v1_50"]
    assert ["head/BatchNorm/moving_mean", [5]] in resnet[0]  # the scope reached the script's layer
    assert len(expected[0]["inception_v3"][0]) > 300
    assert ["alexnet_v2/conv1/BatchNorm/moving_mean", [64]] in expected[0]["alexnet_overfeat"][0]
    assert under_run == expected, "run"
    assert migrated == expected, "migrate"


@pytest.mark.rewrites
def test_small_nets_with_the_same_weights_give_tf_1_15s_outputs(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, OUTPUTS)
    assert len(expected[0]["v1"][0]) == 2 and len(expected[0]["v1"][0][0][0][0]) == 3
    assert_close(expected, under_run, 1e-4, "run")
    assert_close(expected, migrated, 1e-4, "migrate")
