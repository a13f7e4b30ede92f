"""Keras 3 layers on logical CPUs: the seed's pattern versus modern.layer_placement."""

import pytest

from isolated import run_json

SCENARIO = """
import json
import re
import numpy as np
from modern import devices, placement
from modern.layer_placement import on_device, place_layers, weight_devices

devices.split_cpu(3)
import tensorflow as tf
import keras

x = np.ones((4, 8), np.float32)
facts = {}

def compute_devices(model, names):
    _, where = placement.run(model, x)
    found = {}
    for name in names:
        scope = re.compile(rf"(^|/){name}(_\\d+)?/")  # Keras adds _1, _2 on later calls
        # The layer's ops as written: Grappler and oneDNN fuse them into _FusedMatMul /
        # _MklNativeFusedMatMul nodes, which written_ops() reports on their devices.
        ops = [op for op in where.written_ops() if scope.search(op.name)
               and "gradient_tape" not in op.name  # backward ops: see the module's note
               and op.op_type in ("MatMul", "BiasAdd", "AddV2")]
        found[name] = sorted({op.short_device for op in ops})
    return found

# 1. The seed, lazily built: the tf.device blocks are gone by the time weights exist.
seed = keras.Sequential()
with tf.device("/cpu:1"):
    seed.add(keras.layers.Dense(4, name="lazy_a"))
with tf.device("/cpu:2"):
    seed.add(keras.layers.Dense(2, name="lazy_b"))
seed(x)
facts["seed_lazy_weights"] = weight_devices(seed)

# 2. The seed with keras.Input: weights placed, ops not.
seed_input = keras.Sequential([keras.Input((8,))])
with tf.device("/cpu:1"):
    seed_input.add(keras.layers.Dense(4, name="eager_a"))
facts["seed_input_weights"] = weight_devices(seed_input)
facts["seed_input_ops"] = compute_devices(seed_input, ["eager_a"])

# 3. on_device at add time, with keras.Input.
ours = keras.Sequential([keras.Input((8,))])
ours.add(on_device(keras.layers.Dense(4, name="ours_a"), "/cpu:1"))
ours.add(on_device(keras.layers.Dense(2, name="ours_b"), "/cpu:2"))
facts["ours_weights"] = weight_devices(ours)
facts["ours_ops"] = compute_devices(ours, ["ours_a", "ours_b"])

# 4. place_layers on a lazily built model, then fit.
lazy = keras.Sequential([keras.layers.Dense(6, name="p0"), keras.layers.Dense(3, name="p1"),
                         keras.layers.Dense(1, name="p2")])
place_layers(lazy, {0: "/cpu:1", "p1": "/cpu:2"})
lazy.compile(optimizer="sgd", loss="mse")
history = lazy.fit(np.random.default_rng(0).normal(size=(32, 8)).astype("float32"),
                   np.zeros((32, 1), "float32"), epochs=2, batch_size=8, verbose=0)
facts["fit_epochs"] = len(history.history["loss"])
facts["lazy_weights"] = weight_devices(lazy)
facts["lazy_ops"] = compute_devices(lazy, ["p0", "p1", "p2"])

# 5. Errors.
try:
    on_device(seed.layers[0], "/cpu:1")
except ValueError as error:
    facts["built_error"] = str(error)
try:
    place_layers(lazy, {"nope": "/cpu:0"})
except ValueError as error:
    facts["name_error"] = str(error)
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def facts():
    return run_json(SCENARIO)


def test_seed_pattern_lazy_weights_land_on_default_device(facts):
    assert set(facts["seed_lazy_weights"].values()) == {"CPU:0"}


def test_seed_pattern_with_input_places_weights_but_not_ops(facts):
    assert set(facts["seed_input_weights"].values()) == {"CPU:1"}
    assert facts["seed_input_ops"]["eager_a"] == ["CPU:0"]


def test_on_device_places_weights_and_ops(facts):
    weights = facts["ours_weights"]
    assert {d for p, d in weights.items() if "ours_a" in p} == {"CPU:1"}
    assert {d for p, d in weights.items() if "ours_b" in p} == {"CPU:2"}
    assert facts["ours_ops"] == {"ours_a": ["CPU:1"], "ours_b": ["CPU:2"]}


def test_place_layers_on_lazy_model_survives_fit(facts):
    assert facts["fit_epochs"] == 2
    weights = facts["lazy_weights"]
    assert {d for p, d in weights.items() if "/p0/" in p} == {"CPU:1"}
    assert {d for p, d in weights.items() if "/p1/" in p} == {"CPU:2"}
    assert {d for p, d in weights.items() if "/p2/" in p} == {"CPU:0"}
    assert facts["lazy_ops"] == {"p0": ["CPU:1"], "p1": ["CPU:2"], "p2": ["CPU:0"]}


def test_clear_errors(facts):
    assert "already built" in facts["built_error"] and "CPU:0" in facts["built_error"]
    assert "'nope'" in facts["name_error"] and "p0" in facts["name_error"]
