"""TF 1.15's private modules that TF 2 moved whole (`training.tracking.*` -> `trackable.*` and
`checkpoint.*`, `training.training_ops`, `distribute.distribution_strategy_context`), imported
by their TF 1.15 paths: served under `run` and after `migrate` as TF 1.15 ran them
(tf1compat/runner/private_paths/moved.py)."""

import importlib

import pytest

from contrib.three_ways import assert_close, three_ways
from tf1compat.runner.private_paths import moved

PROGRAM = """
import json
import tensorflow as tf
from tensorflow.python.training.tracking import data_structures, tracking
from tensorflow.python.training.tracking import util as tracking_util
from tensorflow.python.training import training_ops
from tensorflow.python.distribute import distribution_strategy_context

root = tracking.AutoTrackable()
root.v = tf.Variable(1.0, name="v")
root.layers = data_structures.List([tf.Variable(2.0, name="w")])
root.skipped = data_structures.NoDependency([3.0])
var = tf.Variable([1.0, 2.0], name="adam_var")
slots = [tf.Variable([0.0, 0.0], name=name) for name in ("m", "s")]
step = training_ops.apply_adam(var, slots[0], slots[1], 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8,
                               tf.constant([0.5, -0.5]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    updated = sess.run(step).tolist()
print("RESULT " + json.dumps({
    "objects": sorted(type(o).__name__ for o in tracking_util.list_objects(root)),
    "classes": [tracking.AutoTrackable.__name__, tracking_util.Checkpoint.__name__],
    "has_strategy": distribution_strategy_context.has_strategy(),
    "adam": updated}))
"""


@pytest.mark.tf1_reference
def test_moved_modules_serve_tf_1_15_s_names_under_run_and_after_migrate(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected[0]["objects"] == ["AutoTrackable", "List", "RefVariable", "RefVariable"]
    # one Adam step of float32 kernels: equal to the last digits or nearly
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")


@pytest.mark.parametrize("module", sorted(moved.MOVED))
def test_every_declared_home_is_a_module_of_tf_2_21(module):
    for target in moved.moved_to(module):
        assert importlib.import_module(target).__name__ == target
    assert moved.moved_to("tensorflow.python.ops.array_ops") is None
    assert moved.is_moved_package("tensorflow.python.training.tracking")
