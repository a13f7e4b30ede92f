"""The census scanner's rules, each as a source and the names it counts."""

import textwrap

import pytest

from tf1compat.census import scan


def counts(source: str) -> dict:
    return dict(scan.count_source(textwrap.dedent(source)).counts)


def spellings(source: str) -> dict:
    found = scan.count_source(textwrap.dedent(source))
    return {name: sorted(seen) for name, seen in found.spellings.items()}


def test_each_import_of_tensorflow_is_a_use_of_the_module_it_names():
    assert counts("""
        import tensorflow as tf
        import tensorflow.contrib.slim as slim
        import tensorflow.python.client.device_lib
        """) == {"tf": 1, "tf.contrib.slim": 1, "tensorflow.python.client:device_lib": 1}


def test_attribute_chains_on_tensorflow_are_counted_each_time():
    assert counts("""
        import tensorflow as tf
        opt = tf.train.AdamOptimizer(1e-3)
        other = tf.train.AdamOptimizer(learning_rate=0.1)
        cell = tf.nn.rnn_cell.LSTMCell(4)
        flags = tf.app.flags.FLAGS
        """) == {"tf": 1, "tf.train.AdamOptimizer": 2, "tf.nn.rnn_cell.LSTMCell": 1,
                 "tf.app.flags.FLAGS": 1}


@pytest.mark.parametrize("expression, name", [
    ("tf.train.AdamOptimizer(0.1).minimize(loss)", "tf.train.AdamOptimizer"),  # a call's result
    ("tf.get_default_graph().as_graph_def()", "tf.get_default_graph"),
    ("tf.estimator.ModeKeys.TRAIN", "tf.estimator.ModeKeys"),  # a class's member
    ("tf.app.flags.FLAGS.batch_size", "tf.app.flags.FLAGS"),
    ("tf.float32.max", "tf.float32"),  # a dtype object's member
    ("tf.nn.__dict__", "tf.nn"),  # a look at the module itself
    ("tf.__version__", "tf.__version__"),  # the version is a name of its own
    ("tf.logging.INFO", "tf.logging.INFO"),
])
def test_a_chain_stops_where_it_reads_a_member(expression, name):
    found = counts(f"import tensorflow as tf\nvalue = {expression}\n")
    assert found == {"tf": 1, name: 1}


def test_the_compat_v1_api_is_counted_as_tf_names():
    assert counts("""
        import tensorflow.compat.v1 as tf
        x = tf.placeholder(tf.float32, [None, 3])
        """) == {"tf.compat.v1": 1, "tf.placeholder": 1, "tf.float32": 1}
    assert counts("""
        import tensorflow as tf
        from tensorflow.compat import v1 as tf1
        tfv1 = tf.compat.v1
        x = tf.compat.v1.placeholder(tf1.float32)
        y = tfv1.placeholder(tfv1.int32)
        """) == {"tf": 1, "tf.compat.v1": 2, "tf.placeholder": 2, "tf.float32": 1,
                 "tf.int32": 1}
    assert spellings("""
        import tensorflow.compat.v1 as tf
        x = tf.placeholder
        """)["tf.placeholder"] == ["attr:tensorflow.compat.v1:placeholder"]


def test_a_module_imported_from_the_source_tree_counts_its_import_and_its_chains():
    source = """
        from tensorflow.python.framework import graph_util
        frozen = graph_util.convert_variables_to_constants(sess, graph_def, ["out"])
        again = graph_util.convert_variables_to_constants(sess, graph_def, ["out"])
        """
    assert counts(source) == {
        "tensorflow.python.framework:graph_util": 1,
        "tensorflow.python.framework.graph_util:convert_variables_to_constants": 2}
    assert spellings(source) == {
        "tensorflow.python.framework:graph_util": ["from:tensorflow.python.framework:graph_util"],
        "tensorflow.python.framework.graph_util:convert_variables_to_constants": [
            "attr:tensorflow.python.framework:graph_util.convert_variables_to_constants"]}


def test_the_same_name_reached_by_import_as_or_from_import_is_one_name():
    by_from = counts("""
        from tensorflow.python.client import device_lib
        devices = device_lib.list_local_devices()
        """)
    by_import = counts("""
        import tensorflow.python.client.device_lib as device_lib
        devices = device_lib.list_local_devices()
        """)
    assert by_from == by_import == {
        "tensorflow.python.client:device_lib": 1,
        "tensorflow.python.client.device_lib:list_local_devices": 1}


def test_names_imported_from_tensorflow_count_their_import_and_each_reference():
    assert counts("""
        from tensorflow.keras.layers import Dense
        from tensorflow.contrib.framework.python.ops import arg_scope
        from tensorflow.python.platform.flags import FLAGS
        def net(x):
            with arg_scope([Dense]):
                return Dense(3)(Dense(4)(x)), FLAGS.steps
        """) == {"tf.keras.layers.Dense": 4, "tensorflow.contrib.framework.python.ops:arg_scope": 2,
                 "tensorflow.python.platform.flags:FLAGS": 2}


def test_imported_public_modules_prefix_the_names_read_from_them():
    assert counts("""
        import tensorflow.contrib.slim as slim
        from tensorflow.contrib import rnn
        from tensorflow.examples.tutorials.mnist import input_data
        from tensorflow.core.protobuf import config_pb2
        def net(x):
            mnist = input_data.read_data_sets("data")
            config = config_pb2.ConfigProto()
            return slim.conv2d(slim.conv2d(x, 3, 3), 3, 3), rnn.GRUCell(4), slim
        """) == {"tf.contrib.slim": 1, "tf.contrib.slim.conv2d": 2, "tf.contrib.rnn": 1,
                 "tf.contrib.rnn.GRUCell": 1, "tensorflow.examples.tutorials.mnist:input_data": 1,
                 "tensorflow.examples.tutorials.mnist.input_data:read_data_sets": 1,
                 "tensorflow.core.protobuf:config_pb2": 1,
                 "tensorflow.core.protobuf.config_pb2:ConfigProto": 1}


def test_import_without_as_binds_tensorflow_and_deep_chains_follow_it():
    assert counts("""
        import tensorflow.contrib.slim
        net = tensorflow.contrib.slim.conv2d(x, 3, 3)
        """) == {"tf.contrib.slim": 1, "tf.contrib.slim.conv2d": 1}


def test_assigning_a_module_binds_it_and_nothing_else_is_bound():
    assert counts("""
        import tensorflow as tf
        slim = tf.contrib.slim
        rnn_cell = tf.nn.rnn_cell
        dtype = tf.float32
        Optimizer = tf.train.AdamOptimizer
        def f(x, dtype):
            return slim.conv2d(x, 3, 3), rnn_cell.GRUCell(3), dtype.name, Optimizer.minimize
        """) == {"tf": 1, "tf.contrib.slim": 1, "tf.contrib.slim.conv2d": 1, "tf.nn.rnn_cell": 1,
                 "tf.nn.rnn_cell.GRUCell": 1, "tf.float32": 1, "tf.train.AdamOptimizer": 1}


def test_a_star_import_is_one_use_of_the_module():
    assert counts("from tensorflow.python.ops.rnn_cell import *\ncell = GRUCell(3)\n") == \
        {"tensorflow.python.ops:rnn_cell": 1}


def test_imports_inside_functions_bind_too():
    assert counts("""
        def f(x):
            import tensorflow as tf
            return tf.nn.relu(x)
        """) == {"tf": 1, "tf.nn.relu": 1}


def test_what_is_not_tensorflow_is_not_counted():
    assert counts("""
        import numpy as np
        import tensorflow_hub as hub
        from . import tensorflow
        from .tensorflow import layers
        x = np.float32(1) + hub.Module("m") + tensorflow.nn.relu + layers.dense
        """) == {}
    assert counts("import keras\nmodel = keras.models.Sequential()\n") == {}


def test_files_that_do_not_parse_count_nothing_and_say_so():
    found = scan.count_source("import tensorflow as tf\nprint 'python 2', tf.nn.relu\n")
    assert dict(found.counts) == {} and found.unparsed
    assert not scan.count_source("print 'no tf here'\n").unparsed
