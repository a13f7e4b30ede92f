"""contrib.layers / slim replacements against TF 1.x's documented behaviour (graph mode)."""

import math

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib import layers
from tf1compat.contrib.arg_scope import add_arg_scope, arg_scope, arg_scoped_arguments

v1 = tf.compat.v1


def test_flatten_keeps_the_batch_and_multiplies_the_rest(graph):
    x = v1.placeholder(tf.float32, [None, 3, 4, 5])
    flat = layers.flatten(x)
    assert flat.shape.as_list() == [None, 60]
    assert flat.op.name.startswith("Flatten/")
    value = graph.run(flat, {x: np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)})
    assert value.shape == (2, 60) and value[1, 0] == 60
    partly = layers.flatten(v1.placeholder(tf.float32, [2, None, 3]))
    assert partly.shape.as_list() == [2, None]
    for bad in (v1.placeholder(tf.float32, [5]), v1.placeholder(tf.float32)):
        with pytest.raises(ValueError, match="at least 2|a least 2"):
            layers.flatten(bad)


def test_fully_connected_variables_collections_and_value(graph):
    x = tf.constant([[1.0, 2.0]])
    out = layers.fully_connected(x, 3, weights_initializer=v1.ones_initializer(),
                                 biases_initializer=v1.constant_initializer(0.5),
                                 activation_fn=None, outputs_collections=["outs"])
    again = layers.fully_connected(x, 3)
    names = [v.op.name for v in v1.global_variables()]
    assert names == ["fully_connected/weights", "fully_connected/biases",
                     "fully_connected_1/weights", "fully_connected_1/biases"]
    assert [v.op.name for v in v1.get_collection(v1.GraphKeys.MODEL_VARIABLES)] == names
    assert v1.get_collection("outs") == [out] and out.aliases == ["fully_connected"]  # as TF 1.15
    graph.run(v1.global_variables_initializer())
    np.testing.assert_allclose(graph.run(out), [[3.5, 3.5, 3.5]])
    assert (graph.run(again) >= 0).all()  # relu by default
    with pytest.raises(ValueError, match="num_outputs"):
        layers.fully_connected(x, 2.0)


def test_fully_connected_on_rank_3_and_with_a_normalizer(graph):
    x = v1.placeholder(tf.float32, [None, 5, 4])
    out = layers.fully_connected(x, 6, normalizer_fn=layers.batch_norm, scope="fc")
    assert out.shape.as_list() == [None, 5, 6]
    names = {v.op.name for v in v1.global_variables()}
    assert "fc/weights" in names and "fc/biases" not in names  # no biases with a normalizer
    assert "fc/BatchNorm/beta" in names


def test_conv2d_and_pools_shapes_names_and_arg_scope(graph):
    x = v1.placeholder(tf.float32, [2, 9, 9, 3])
    with arg_scope([layers.conv2d], padding="VALID", activation_fn=None):
        net = layers.conv2d(x, 4, [3, 3], scope="conv1")
        same = layers.conv2d(x, 4, 3, padding="SAME", scope="conv2")
    assert net.shape.as_list() == [2, 7, 7, 4] and same.shape.as_list() == [2, 9, 9, 4]
    kernel = [v for v in v1.global_variables() if v.op.name == "conv1/weights"][0]
    assert kernel.shape.as_list() == [3, 3, 3, 4]
    assert layers.max_pool2d(net, [2, 2]).shape.as_list() == [2, 3, 3, 4]
    assert layers.avg_pool2d(same, 3, stride=3, padding="SAME").shape.as_list() == [2, 3, 3, 4]
    with pytest.raises(ValueError, match="NCHW or NHWC"):
        layers.max_pool2d(net, 2, data_format="NWHC")


def test_repeat_names_scopes_as_slim_does(graph):
    x = v1.placeholder(tf.float32, [1, 5, 5, 2])
    layers.repeat(x, 2, layers.conv2d, 3, [3, 3], scope="conv1")
    assert [v.op.name for v in v1.trainable_variables()] == [
        "conv1/conv1_1/weights", "conv1/conv1_1/biases", "conv1/conv1_2/weights",
        "conv1/conv1_2/biases"]


def test_arg_scope_contract():
    @add_arg_scope
    def f(x, a=1, b=2):
        return (x, a, b)

    with arg_scope([f], a=10) as outer:
        with arg_scope([f], b=20):
            assert f(0) == (0, 10, 20) and f(0, a=5) == (0, 5, 20)
        assert f(0) == (0, 10, 2)
    with arg_scope(outer):
        assert f(0) == (0, 10, 2)
    assert f(0) == (0, 1, 2)
    assert arg_scoped_arguments(f) == ["a", "b"]  # as TF 1.15: those with a default
    with pytest.raises(ValueError, match="not decorated"):
        with arg_scope([len], a=1):
            pass
    with pytest.raises(TypeError, match="list/tuple"):
        with arg_scope(f, a=1):
            pass
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with arg_scope(outer, a=1):
            pass


def test_regularizers_against_hand_computation(graph):
    w = tf.constant([[1.0, -2.0], [3.0, -4.0]])
    assert graph.run(layers.l1_regularizer(0.5)(w)) == pytest.approx(5.0)
    assert graph.run(layers.l2_regularizer(0.1)(w)) == pytest.approx(0.1 * 30 / 2)
    assert graph.run(layers.l1_l2_regularizer(0.5, 0.1)(w)) == pytest.approx(6.5)
    assert layers.l2_regularizer(0.0)(w) is None
    for bad in (1, -0.5):
        with pytest.raises(ValueError):
            layers.l2_regularizer(bad)
    total = layers.apply_regularization(layers.l1_regularizer(1.0), [w, -w])
    assert graph.run(total) == pytest.approx(20.0)
    assert total in v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES)
    with pytest.raises(ValueError, match="No weights"):
        layers.apply_regularization(layers.l1_regularizer(1.0))


def test_initializers_limits_and_errors(graph):
    shape = [3, 3, 8, 16]  # fan_in 72, fan_out 144
    uniform = graph.run(layers.xavier_initializer(seed=1)(shape))
    limit = math.sqrt(3.0 / ((72 + 144) / 2))
    assert np.abs(uniform).max() <= limit and np.abs(uniform).max() > 0.9 * limit
    normal = graph.run(layers.variance_scaling_initializer(seed=2)(shape))  # 2.0, FAN_IN
    bound = 2 * math.sqrt(1.3 * 2.0 / 72)  # truncated at two standard deviations
    assert np.abs(normal).max() <= bound
    with pytest.raises(TypeError, match="mode"):
        layers.variance_scaling_initializer(mode="FAN_MAX")
    with pytest.raises(TypeError, match="floating"):
        layers.xavier_initializer(dtype=tf.int32)


def test_batch_norm_training_inference_and_moving_updates(graph):
    data = np.array([[1.0, 10.0], [3.0, 20.0], [5.0, 60.0]], dtype=np.float32)
    x = v1.placeholder(tf.float32, [None, 2])
    training = v1.placeholder_with_default(True, [])
    out = layers.batch_norm(x, decay=0.5, epsilon=0.0, is_training=training, scale=True)
    updates = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    names = {v.op.name for v in v1.global_variables()}
    assert names == {"BatchNorm/beta", "BatchNorm/gamma", "BatchNorm/moving_mean",
                     "BatchNorm/moving_variance"}
    graph.run(v1.global_variables_initializer())
    normalized, _ = graph.run([out, updates], {x: data})
    expected = (data - data.mean(0)) / data.std(0)
    np.testing.assert_allclose(normalized, expected, rtol=1e-4, atol=1e-5)
    moving_mean, moving_variance = graph.run(
        [v for v in v1.global_variables() if "moving" in v.op.name])
    np.testing.assert_allclose(moving_mean, 0.5 * data.mean(0), rtol=1e-5)
    # the fused kernel, as TF 1.x used it, updates with the unbiased (n - 1) variance
    np.testing.assert_allclose(moving_variance, 0.5 + 0.5 * data.var(0, ddof=1), rtol=1e-4)
    inference = graph.run(out, {x: data, training: False})
    np.testing.assert_allclose(inference, (data - moving_mean) / np.sqrt(moving_variance),
                               rtol=1e-4, atol=1e-5)


def test_batch_norm_without_update_collection_and_dropout_modes(graph):
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    out = layers.batch_norm(x, updates_collections=None, is_training=True)  # rank 3: moments
    assert v1.get_collection(v1.GraphKeys.UPDATE_OPS) == []
    graph.run(v1.global_variables_initializer())
    assert out.shape.as_list() == [2, 3, 4]
    graph.run(out)
    moving_mean = [v for v in v1.global_variables() if v.op.name.endswith("moving_mean")][0]
    assert graph.run(moving_mean)[0] == pytest.approx(0.001 * 10.0)
    kept = layers.dropout(x, keep_prob=0.5, is_training=False)
    np.testing.assert_array_equal(graph.run(kept), graph.run(x))
    dropped = graph.run(layers.dropout(tf.ones([1000]), keep_prob=0.5, seed=1))
    assert set(np.unique(dropped)) <= {0.0, 2.0} and 300 < (dropped == 0).sum() < 700


def test_one_hot_encoding(graph):
    out = layers.one_hot_encoding(tf.constant([0, 2]), 3, on_value=5.0)
    np.testing.assert_array_equal(graph.run(out), [[5, 0, 0], [0, 0, 5]])
