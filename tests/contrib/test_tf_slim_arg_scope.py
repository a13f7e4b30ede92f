"""tf_slim's layers (slim.nets) and tf1compat's slim layers share one arg_scope, as TF 1.x's one
slim did: a scope set on either reaches both, and tf_slim's own blocks can be scoped."""

import importlib.util

import pytest
import tensorflow as tf

import tf1compat.contrib as contrib

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tf_slim") is None,
                                reason="tf_slim is not installed (pip install tf-slim)")
slim = contrib.slim


def _regularized() -> int:
    return len(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.REGULARIZATION_LOSSES))


def test_a_scope_on_slim_conv2d_reaches_the_nets_convolutions(graph):
    images = tf.compat.v1.placeholder(tf.float32, [1, 224, 224, 3])
    with slim.arg_scope([slim.conv2d], weights_regularizer=slim.l2_regularizer(0.1)):
        slim.nets.vgg.vgg_a(images)
    assert _regularized() == 11  # vgg_a: 8 convolutions and 3 fully connected (as convolutions)


def test_a_scope_tf_slim_made_reaches_tf1compats_layers(graph):
    from tf_slim.ops.arg_scope import arg_scope as tf_slim_arg_scope

    net = tf.compat.v1.placeholder(tf.float32, [2, 8, 8, 3])
    with tf_slim_arg_scope([slim.nets.resnet_utils.layers.conv2d], activation_fn=None,
                           weights_regularizer=slim.l2_regularizer(0.1)):
        out = slim.conv2d(net, 4, [1, 1], scope="ours")
    assert out.op.type != "Relu" and _regularized() == 1
    assert slim.conv2d(net, 4, [1, 1], scope="after").op.type == "Relu"  # the scope ended


def test_tf_slims_blocks_take_a_scope_from_slim_arg_scope():
    resnet_v1 = slim.nets.resnet_v1
    assert contrib.framework.has_arg_scope(resnet_v1.bottleneck)
    with slim.arg_scope([resnet_v1.bottleneck], outputs_collections="blocks") as scope:
        pass
    from tf_slim.ops.arg_scope import arg_scope_func_key

    assert scope[arg_scope_func_key(resnet_v1.bottleneck)] == {"outputs_collections": "blocks"}
    with pytest.raises(ValueError, match="not decorated"):
        with slim.arg_scope([len]):
            pass
