"""Import paths of TF 1.15 that reached a module file, a layer TF 2.21 forwards to a path that
does not exist, and a tool TF 2.21 does not ship: under `run` and after `migrate` they import
what TF 1.15 imported (or its stand-in, which says why when called), as TF 1.15 ran them.

- a contrib package holding a module file and re-exporting a function of the same name one
  level up (`recurrent.python.ops.functional_rnn`, `tpu.python.tpu.device_assignment`):
  the package's attribute is the module file, the file's the function (contrib/registry.py);
- `tensorflow.python.layers.normalization`, which TF 2.21 forwards to `tf_keras.
  legacy_tf_layers` (a path tf_keras keeps under `tf_keras.src`): the layer `tf.layers`
  serves (runner/private_paths/moved.py);
- `tensorflow.tools.graph_transforms` and `tensorflow.python.profiler.profile_context`:
  stand-ins (contrib/absent_modules.py).
"""

import inspect

import pytest

from contrib.three_ways import three_ways

PROGRAM = """
import inspect
import json

import tensorflow as tf
from tensorflow.contrib.recurrent.python.ops import functional_rnn as functional_rnn_file
from tensorflow.contrib.recurrent.python.ops.functional_rnn import functional_rnn
from tensorflow.contrib.tpu.python.tpu.device_assignment import device_assignment
from tensorflow.python.layers.normalization import BatchNormalization, batch_normalization
from tensorflow.python.profiler.profile_context import ProfileContext
from tensorflow.tools.graph_transforms import TransformGraph

x = tf.constant([[1.0, 2.0, 3.0], [3.0, 6.0, 5.0]])
normalized = batch_normalization(x, training=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    values = sess.run(normalized).round(5).tolist()
print("RESULT " + json.dumps({
    "kinds": [inspect.ismodule(functional_rnn_file), inspect.isfunction(functional_rnn),
              inspect.isfunction(device_assignment), inspect.isclass(ProfileContext),
              callable(TransformGraph)],
    "same layer": [BatchNormalization is tf.layers.BatchNormalization,
                   batch_normalization is tf.layers.batch_normalization],
    "normalized": values}))
"""


@pytest.mark.tf1_reference
def test_import_paths_give_what_tf115_gave_under_run_and_after_migrate(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected[0]["kinds"] == [True, True, True, True, True]
    assert expected[0]["same layer"] == [True, True]
    assert under_run == expected
    assert migrated == expected


def test_a_tool_tf_2_21_does_not_ship_says_so_when_called():
    from tf1compat.contrib import absent_modules

    module = absent_modules.imported("tensorflow.tools", ["graph_transforms"]).graph_transforms
    with pytest.raises(absent_modules.AbsentTool, match="transform_graph binary"):
        module.TransformGraph(None, ["x"], ["y"], ["strip_unused_nodes"])
    assert absent_modules.imported("tensorflow.tools", ["docs"]) is None
    assert "transforms" in inspect.signature(module.TransformGraph).parameters
