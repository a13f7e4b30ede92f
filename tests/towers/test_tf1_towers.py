"""tf1compat.towers on logical CPUs: placement proved by placement data, numbers by a 1-device run."""

import numpy as np
import pytest
import tensorflow as tf

import tf1compat
from tf1compat import DeviceError, placement, towers

A = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0
B = np.arange(20, dtype=np.float32).reshape(4, 5) / 3.0


@pytest.mark.parametrize("count", [2, 3, 4])
def test_matmul_towers_place_each_tower_and_sum_on_cpu(count):
    devices = [f"/cpu:{i}" for i in range(count)]
    with tf1compat.session(cpus=count) as sess:
        a = tf.compat.v1.placeholder(tf.float32, A.shape)
        b = tf.compat.v1.placeholder(tf.float32, B.shape)
        total = towers.matmul_towers(a, b, devices)
        value, where = placement.run(sess, total, {a: A, b: B})
    for index in range(count):
        assert where.device_of(f"tower_{index}/product") == f"CPU:{index}"
    assert where.device_of("sum") == "CPU:0"
    np.testing.assert_allclose(value, count * (A @ B), rtol=1e-6)


def test_matmul_towers_equal_a_single_device_run():
    with tf1compat.session(cpus=4) as sess:
        a = tf.constant(A)
        b = tf.constant(B)
        spread = sess.run(towers.matmul_towers(a, b, [f"/cpu:{i}" for i in range(4)]))
    with tf1compat.session() as sess:
        a = tf.constant(A)
        b = tf.constant(B)
        single = sess.run(towers.matmul_towers(a, b, ["/cpu:0"] * 4))
    np.testing.assert_array_equal(spread, single)


def _linear_loss(inputs):
    x, y = inputs
    w = tf.compat.v1.get_variable("w", initializer=tf.constant([[0.5], [-0.25], [0.1]]))
    b = tf.compat.v1.get_variable("b", initializer=tf.constant([0.2]))
    return tf.reduce_mean(tf.square(tf.matmul(x, w, name="predict") + b - y))


def _train(devices, cpus, steps=20):
    rng = np.random.default_rng(0)
    x_data = rng.normal(size=(64, 3)).astype(np.float32)
    y_data = (x_data @ np.array([[1.0], [2.0], [-1.0]], np.float32) + 0.5)
    with tf1compat.session(cpus=cpus) as sess:
        x = tf.compat.v1.placeholder(tf.float32, [64, 3])
        y = tf.compat.v1.placeholder(tf.float32, [64, 1])
        shards = list(zip(towers.split_batch(x, len(devices)), towers.split_batch(y, len(devices))))
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
        train_op, mean_loss, _ = towers.tower_train_step(_linear_loss, optimizer, shards, devices)
        sess.run(tf.compat.v1.global_variables_initializer())
        losses = []
        for _ in range(steps):
            _, loss = sess.run([train_op, mean_loss], {x: x_data, y: y_data})
            losses.append(float(loss))
        _, where = placement.run(sess, train_op, {x: x_data, y: y_data})
        variables = sess.run(tf.compat.v1.global_variables())
        names = [v.name for v in tf.compat.v1.global_variables()]
    return losses, variables, names, where


def test_tower_training_shares_variables_and_matches_one_device():
    losses, variables, names, where = _train(["/cpu:0", "/cpu:1"], cpus=2)
    single_losses, single_variables, _, _ = _train(["/cpu:0"], cpus=1)
    assert names == ["w:0", "b:0"]  # one set of variables, shared by both towers
    assert losses[-1] < losses[0] / 10
    np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
    for spread, single in zip(variables, single_variables):
        np.testing.assert_allclose(spread, single, rtol=1e-5, atol=1e-6)
    assert where.device_of("tower_0/predict") == "CPU:0"
    assert where.device_of("tower_1/predict") == "CPU:1"
    assert {where.device_of(name) for name in ("w", "b")} == {"CPU:0"}


def test_missing_device_without_soft_placement_lists_devices():
    with tf1compat.session(cpus=2) as sess:
        total = towers.matmul_towers(tf.constant(A), tf.constant(B), ["/cpu:0", "/gpu:1"])
        with pytest.raises(DeviceError) as caught:
            sess.run(total)
    assert "GPU:1" in str(caught.value)
    assert "['CPU:0', 'CPU:1']" in str(caught.value)


def test_missing_device_with_soft_placement_falls_back_and_says_where():
    with tf1compat.session(cpus=2, soft_placement=True) as sess:
        a = tf.compat.v1.placeholder(tf.float32, A.shape)
        b = tf.compat.v1.placeholder(tf.float32, B.shape)
        total = towers.matmul_towers(a, b, ["/cpu:1", "/gpu:1"])
        value, where = placement.run(sess, total, {a: A, b: B})
    np.testing.assert_allclose(value, 2 * (A @ B), rtol=1e-6)
    assert where.device_of("tower_1/product").startswith("CPU:")
