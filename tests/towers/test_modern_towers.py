"""modern.towers on logical CPUs, in a fresh process (the CPU split is fixed per process)."""

import pytest

from isolated import run_json

SCENARIO = """
import json
import numpy as np
import modern
from modern import devices, placement, towers
from tf1compat import DeviceError

devices.split_cpu(4)
import tensorflow as tf
import keras

facts = {}
A = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0
B = np.arange(20, dtype=np.float32).reshape(4, 5) / 3.0
for count in (2, 4):
    names = [f"/cpu:{i}" for i in range(count)]
    value, where = placement.run(lambda a, b: towers.matmul_towers(a, b, names), A, B)
    facts[f"value_{count}"] = np.allclose(value.numpy(), count * (A @ B), rtol=1e-6)
    facts[f"devices_{count}"] = [where.device_of(f"tower_{i}/product") for i in range(count)]
    facts[f"sum_{count}"] = where.device_of("sum")
single = towers.matmul_towers(A, B, ["/cpu:0"] * 4).numpy()
spread = towers.matmul_towers(A, B, [f"/cpu:{i}" for i in range(4)]).numpy()
facts["equal_single"] = bool(np.array_equal(single, spread))

def train(names, steps=20):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [2.0], [-1.0]], np.float32) + 0.5
    with tf.device("/cpu:0"):
        w = tf.Variable([[0.5], [-0.25], [0.1]])
        b = tf.Variable([0.2])
    def loss_fn(inputs):
        xs, ys = inputs
        return tf.reduce_mean(tf.square(tf.matmul(xs, w, name="predict") + b - ys))
    trainer = towers.TowerTrainer(loss_fn, [w, b], keras.optimizers.SGD(0.1), names)
    shards = list(zip(towers.split_batch(x, len(names)), towers.split_batch(y, len(names))))
    losses = [float(trainer.step(shards)) for _ in range(steps)]
    _, where = placement.run(trainer._train_step, tuple(shards))
    return losses, [w.numpy().tolist(), b.numpy().tolist()], where

losses, weights, where = train(["/cpu:0", "/cpu:1"])
single_losses, single_weights, _ = train(["/cpu:0"])
facts["losses"] = [losses[0], losses[-1]]
facts["same_losses"] = bool(np.allclose(losses, single_losses, rtol=1e-5))
facts["same_weights"] = bool(all(np.allclose(a, b, rtol=1e-5, atol=1e-6)
                                 for a, b in zip(weights, single_weights)))
facts["predict_devices"] = sorted(where.devices_of("predict"))

modern.configure(soft_placement=False)  # TF2's default is on
try:
    towers.matmul_towers(A, B, ["/cpu:0", "/gpu:1"])
except DeviceError as error:
    facts["hard_error"] = str(error)
modern.configure(soft_placement=True)
value, where = placement.run(lambda a, b: towers.matmul_towers(a, b, ["/cpu:1", "/gpu:1"]), A, B)
facts["soft_value"] = bool(np.allclose(value.numpy(), 2 * (A @ B), rtol=1e-6))
facts["soft_device"] = where.device_of("tower_1/product")
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def facts():
    return run_json(SCENARIO)


def test_matmul_towers_placed_per_device_summed_on_cpu(facts):
    assert facts["devices_2"] == ["CPU:0", "CPU:1"]
    assert facts["devices_4"] == ["CPU:0", "CPU:1", "CPU:2", "CPU:3"]
    assert facts["sum_2"] == facts["sum_4"] == "CPU:0"
    assert facts["value_2"] and facts["value_4"]


def test_matmul_towers_equal_single_device(facts):
    assert facts["equal_single"]


def test_tower_trainer_matches_one_device_and_places_towers(facts):
    first, last = facts["losses"]
    assert last < first / 10
    assert facts["same_losses"] and facts["same_weights"]
    assert facts["predict_devices"] == ["CPU:0", "CPU:1"]


def test_missing_device_is_our_error_or_soft_fallback(facts):
    assert "GPU:1" in facts["hard_error"]
    assert "['CPU:0', 'CPU:1', 'CPU:2', 'CPU:3']" in facts["hard_error"]
    assert facts["soft_value"]
    assert facts["soft_device"].startswith("CPU:")
