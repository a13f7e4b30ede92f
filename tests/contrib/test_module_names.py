"""The modules TF 1.15's contrib namespaces held (`slim.init_ops`), as TF1 code used them."""


import pytest

from contrib.three_ways import assert_close, three_ways
from tf1compat.contrib import module_names, registry

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
import tensorflow as tf
slim = tf.contrib.slim
x = tf.constant([[1.0, -2.0]])
w = tf.get_variable("w", [2, 2], initializer=slim.init_ops.ones_initializer())
y = slim.control_flow_ops.cond(tf.constant(True), lambda: tf.matmul(x, w), lambda: x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("RESULT " + json.dumps(sess.run(y).tolist()))
"""


def test_slims_modules_three_ways(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected == [[[-1.0, -1.0]]]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")


def test_a_module_tf_2_21_lacks_is_refused_naming_it(monkeypatch):
    monkeypatch.setattr(module_names, "table", lambda: {"slim": {"gone": "tensorflow.python.ops.gone_ops"}})
    with pytest.raises(registry.ContribError, match="TF 1.15's module tensorflow.python.ops.gone_ops"):
        registry.resolve("slim.gone")


def test_the_data_is_what_tf_1_15_holds(tf1_python):
    import tf1_reference

    assert tf1_reference.run_listing(tf1_python, "tf115_contrib_module_names.py")["namespaces"] == module_names.table()