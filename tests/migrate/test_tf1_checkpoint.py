"""`modern.tf1_checkpoint`: a name-based checkpoint, as TF1's Saver writes one, loaded into
TF2 variables and Keras layers by TF1 variable name, and the errors when names or shapes
differ."""

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from modern import tf1_checkpoint  # noqa: E402


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """`model.ckpt-0` with a Dense layer's weights, a scoped variable and Adam's state."""
    prefix = str(tmp_path_factory.mktemp("ckpt") / "model.ckpt-0")
    values = {"dense/kernel": np.arange(12, dtype=np.float32).reshape(4, 3) / 10,
              "dense/bias": np.array([0.5, -0.5, 1.0], np.float32),
              "scope/w": np.array([[2.0]], np.float32),
              "dense/kernel/Adam": np.zeros((4, 3), np.float32),
              "beta1_power": np.array(0.9, np.float32)}
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=list(values),
                      shape_and_slices=[""] * len(values),
                      tensors=[tf.constant(v) for v in values.values()])
    return prefix, values


def test_variables_and_an_unbuilt_dense_layer_load_by_tf1_name(checkpoint):
    prefix, values = checkpoint
    dense = tf.keras.layers.Dense(3, name="dense")
    w = tf.Variable(tf.zeros([1, 1]), name="scope/w")
    loaded = tf1_checkpoint.load(prefix, [dense, w])
    assert loaded == ["dense/bias", "dense/kernel", "scope/w"]  # Adam's state is left out
    np.testing.assert_allclose(dense.kernel.numpy(), values["dense/kernel"], rtol=0, atol=0)
    np.testing.assert_allclose(dense.bias.numpy(), values["dense/bias"], rtol=0, atol=0)
    assert w.numpy().tolist() == [[2.0]]
    # TF1_INIT_CHECKPOINT unset: nothing is loaded; set: that checkpoint
    assert tf1_checkpoint.load_initial([w], environ={}) is None
    assert tf1_checkpoint.load_initial([dense, w], {"TF1_INIT_CHECKPOINT": prefix}) == prefix


def test_names_and_shapes_that_differ_are_named_with_the_checkpoint(checkpoint):
    prefix, _ = checkpoint
    wrong = tf.keras.layers.Dense(3, name="dense")
    wrong.build((None, 5))
    other = tf.Variable(1.0, name="other")
    with pytest.raises(tf1_checkpoint.CheckpointMismatchError) as error:
        tf1_checkpoint.load(prefix, [wrong, other])
    message = str(error.value)
    assert f"TF1 checkpoint {prefix} does not match" in message
    assert "missing from the checkpoint: other" in message
    assert "in the checkpoint, not in the program: scope/w" in message
    assert "shapes differ: dense/kernel: checkpoint [4, 3], program [5, 3]" in message
    with pytest.raises(tf1_checkpoint.CheckpointMismatchError, match="no .*nope.index"):
        tf1_checkpoint.load(prefix + "nope", [other])


def test_an_unbuilt_conv2d_is_built_from_its_kernel_and_pools_hold_nothing(tmp_path):
    prefix = str(tmp_path / "model.ckpt-0")
    values = {"conv2d/kernel": np.arange(24, dtype=np.float32).reshape(3, 2, 2, 2) / 10,
              "conv2d/bias": np.array([0.1, 0.2], np.float32)}
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=list(values),
                      shape_and_slices=[""] * len(values),
                      tensors=[tf.constant(v) for v in values.values()])
    conv = tf.keras.layers.Conv2D(2, (3, 2), name="conv2d")
    pool = tf.keras.layers.MaxPooling2D(2, name="max_pooling2d")
    flat = tf.keras.layers.Flatten(name="flatten")
    assert tf1_checkpoint.load(prefix, [conv, pool, flat]) == ["conv2d/bias", "conv2d/kernel"]
    np.testing.assert_allclose(conv.kernel.numpy(), values["conv2d/kernel"], rtol=0, atol=0)
    assert conv(tf.ones([1, 5, 4, 2])).shape == (1, 3, 3, 2)  # built for 2 input channels
    unbuilt = tf.keras.layers.LSTM(2, name="conv2d")  # a layer whose shape a kernel cannot give
    with pytest.raises(tf1_checkpoint.CheckpointMismatchError, match="is not built yet"):
        tf1_checkpoint.load(prefix, [unbuilt])
