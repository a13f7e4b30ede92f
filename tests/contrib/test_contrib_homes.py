"""`tf.contrib` names served from where TF 1.15 itself took them (tf1compat.contrib.homes)."""


import pytest

from contrib.three_ways import assert_close, three_ways
from tf1compat.contrib import homes, registry
from tf1compat.contrib.spellings import other_spelling

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers.python.layers import layers as contrib_layers
slim = tf.contrib.slim
x = tf.constant(np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 50.0)
with slim.arg_scope([slim.conv2d_transpose], weights_initializer=tf.ones_initializer(),
                    activation_fn=tf.nn.tanh):
    up = tf.contrib.layers.conv2d_transpose(x, 2, [3, 3], stride=2)      # tf_slim's
normed = tf.contrib.layers.group_norm(up, groups=1)                      # Addons in the table
biased = contrib_layers.bias_add(x, initializer=tf.constant_initializer(0.5))
accuracy, update = tf.contrib.metrics.streaming_accuracy(tf.constant([1, 0, 1]),
                                                         tf.constant([1, 1, 1]))
absolute = tf.contrib.quantization.Abs(x=tf.constant([-1.5, 2.0]))       # gen_math_ops.Abs
scalar = tf.contrib.framework.assert_scalar(tf.constant(3.0))            # tf.assert_scalar
dense = tf.contrib.keras.layers.Dense(1, kernel_initializer="ones")(tf.ones([1, 3]))
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    sess.run(update)
    print("RESULT " + json.dumps([
        float(sess.run(up).sum()), list(sess.run(normed).shape), float(sess.run(normed).std()),
        float(sess.run(biased).sum()), float(sess.run(accuracy)), sess.run(absolute).tolist(),
        float(sess.run(scalar)), sess.run(dense).tolist(),
        sorted(v.name for v in tf.global_variables())]))
"""


def test_names_outside_the_table_run_as_under_tf_1_15_three_ways(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected[0][-1][:2] == ["BiasAdd/biases:0", "Conv2d_transpose/biases:0"]
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")


@pytest.mark.parametrize("name, source, target", [
    ("layers.conv2d_transpose", "tf-slim", "tf_slim.layers.layers.convolution2d_transpose"),
    ("layers.group_norm", "tf-slim", "tf_slim.layers.normalization.group_norm"),
    ("metrics.streaming_auc", "tf-slim", "tf_slim.metrics.metric_ops.streaming_auc"),
    ("framework.assert_scalar", "tf115-alias", "tf.compat.v1.assert_scalar"),
    ("keras.layers.Dense", "tf115-alias", "tf_keras.api._v1.keras.layers.Dense"),
    ("quantization.python.math_ops.Atan2", "tf115-alias", "tf.compat.v1.raw_ops.Atan2"),
])
def test_a_name_the_table_lacks_is_served_from_its_tf_1_15_home(name, source, target):
    entry = registry.lookup(name)
    assert (entry.served, entry.source, entry.target) == (registry.Served.MAPPED, source, target)
    assert registry.resolve(name) is registry.import_dotted(target) or source == "tf-slim"


def test_a_home_this_machine_lacks_stays_unsupported_and_says_why():
    # contrib's own kernel: TF 1.15's module file is the only home, and it does not load
    assert homes.target_of("framework.zero_initializer")[0] == "tf115_code"
    assert registry.lookup("framework.zero_initializer") is None
    with pytest.raises(registry.ContribError, match="tf.contrib.framework.zero_initializer"):
        registry.resolve("framework.zero_initializer")
    # TF 1.15's own module that TF 2 moved whole: served from where it went (distribute_lib)
    from tensorflow.python.distribute import distribute_lib

    record = homes.records()["distribute.get_cross_replica_context"]
    assert record["home"].startswith("tensorflow.python.distribute.distribution_strategy_context")
    assert registry.lookup("distribute.get_cross_replica_context").source == "tf115-home"
    assert registry.resolve("distribute.get_cross_replica_context") is \
        distribute_lib.get_cross_replica_context


def test_the_table_s_own_entries_come_first():
    assert registry.lookup("layers.conv2d").target == "tf1compat.contrib.layers.conv2d"
    assert registry.lookup("cudnn_rnn.CudnnLSTM").served is registry.Served.UNSUPPORTED


def test_every_tf_slim_module_named_is_tf_slim_s_and_holds_tf_1_15_s_names():
    pytest.importorskip("tf_slim", reason="the tf_slim library (extra `slim`) is not installed")
    from tf1compat.contrib.tf_slim_compat import load

    load()
    lacking = []
    for name, record in homes.records().items():
        target = homes.tf_slim_home(record.get("home", ""))
        if target is None:
            continue
        try:
            registry.import_dotted(target)
        except (AttributeError, ImportError):
            lacking.append(record["home"])
    assert not lacking, f"tf_slim lacks {lacking}: add them to homes.TF_SLIM_LACKS"
    for home in homes.TF_SLIM_LACKS:  # and each one said to lack is lacking
        module, _, name = home.partition(":")
        assert not hasattr(registry.import_dotted(homes.TF_SLIM_MODULES[module]), name), home


def test_a_module_holding_served_names_is_a_namespace_and_a_module_name_is_not():
    # contrib.learn's dataset helpers: TF 1.15's own source serves them (TensorFlow's
    # `deprecated`, which the module imported for itself, is not what makes it one)
    assert "learn.datasets.base" in homes.namespaces()
    assert registry.lookup("learn.datasets.base.load_csv_with_header").source == "tf115-source"
    assert "slim.init_ops" not in homes.namespaces()  # module_names' module, served as one
    assert {"quantization", "metrics", "keras.layers"} <= homes.namespaces()


def test_the_data_is_what_tf_1_15_holds(tf1_python):
    import tf1_reference

    assert tf1_reference.run_listing(tf1_python, "tf115_contrib_homes.py")["names"] == homes.records()


SPELLINGS = """
import json
import tensorflow as tf
from tensorflow.python.distribute.cluster_resolver import tpu_cluster_resolver
from tensorflow.python.distribute.cluster_resolver.tpu_cluster_resolver import TPUClusterResolver
spellings = [tf.contrib.cluster_resolver.TPUClusterResolver,
             tf.distribute.cluster_resolver.TPUClusterResolver,
             tpu_cluster_resolver.TPUClusterResolver, TPUClusterResolver]
# TF 1.15 took '' as a local master (no Cloud TPU lookup) under every spelling
print("RESULT " + json.dumps([cls(tpu="").master() for cls in spellings]
                             + [cls("grpc://10.0.0.1:8470").master() for cls in spellings]))
"""


def test_one_object_under_every_spelling_behaves_as_tf_1_15_s_three_ways(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SPELLINGS)
    assert expected == [[""] * 4 + ["grpc://10.0.0.1:8470"] * 4]
    assert under_run == expected and migrated == expected


def test_every_other_spelling_is_tf_1_15_s_alias_or_home_of_the_contrib_name():
    from tf1compat.contrib.tables import SERVED_UNDER_EVERY_SPELLING

    for name, spellings in SERVED_UNDER_EVERY_SPELLING.items():
        record = homes.records()[name]
        assert set(spellings) == {record["alias"][len("tf."):], record["home"]}, name
        assert registry.lookup(name).served is registry.Served.REPLACED
        assert all(other_spelling(s) is registry.resolve(name) for s in spellings)
