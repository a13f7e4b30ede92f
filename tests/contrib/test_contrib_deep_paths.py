"""Deep `tensorflow.contrib.X.python...` paths resolve to the served public names, the same
under `run` and after `migrate`."""

import textwrap

import pytest

from isolated import run_cli, run_python
from tf1compat.contrib import registry
from tf1compat.census.served import migrate_serves, run_serves
from tf1compat.contrib.import_check import import_error
from tf1compat.contrib.registry import DeepModule

SCRIPT = """
import numpy as np
import tensorflow as tf
from tensorflow.contrib.framework.python.ops import arg_scope
from tensorflow.contrib.layers.python.layers import initializers, layers as layers_lib
import tensorflow.contrib.layers.python.layers.regularizers as regularizers
from tensorflow.contrib.layers.python.layers.utils import collect_named_outputs

x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
with arg_scope([layers_lib.fully_connected], activation_fn=None):
    net = layers_lib.fully_connected(
        x, 2, weights_initializer=tf.constant_initializer(0.5),
        weights_regularizer=regularizers.l2_regularizer(0.1), scope="fc")
w = tf.contrib.layers.python.layers.initializers.xavier_initializer(seed=1)
collect_named_outputs("outs", "fc", net)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("net", sess.run(net).tolist())
    print("reg", round(float(sess.run(tf.losses.get_regularization_loss())), 6))
    print("names", [v.op.name for v in tf.global_variables()], len(tf.get_collection("outs")))
"""


@pytest.mark.parametrize("raw, public", [
    ("framework.python.ops.arg_scope", "framework.arg_scope"),  # TF 1.15's package re-exports it
    ("layers.python.layers.layers.conv2d", "layers.conv2d"),
    ("layers.python.layers.initializers.xavier_initializer", "layers.xavier_initializer"),
    ("layers.python.layers.batch_norm", "layers.batch_norm"),
])
def test_a_deep_path_is_the_object_of_its_public_name(raw, public):
    import tf1compat.contrib as contrib

    value = contrib
    for part in raw.split("."):
        value = getattr(value, part)
    assert value is registry.resolve(public)


def test_folders_and_module_files_are_modules_and_unserved_names_fail_naming_them():
    import tf1compat.contrib as contrib

    assert isinstance(contrib.framework.python.ops, DeepModule)
    # As in TF 1.15: the package's attribute is the function, an import of the path the module.
    assert callable(contrib.framework.python.ops.arg_scope)
    module_file = registry.import_step(contrib.framework.python.ops, "arg_scope")
    assert isinstance(module_file, DeepModule)
    assert module_file.add_arg_scope is registry.resolve("framework.add_arg_scope")
    error = import_error("layers.python.layers.layers", ("no_such_layer",))
    assert "tf.contrib.layers.no_such_layer" in error
    assert "written tensorflow.contrib.layers.python.layers.layers.no_such_layer" in error


@pytest.mark.parametrize("spelling", [
    "from:tensorflow.contrib.framework.python.ops:arg_scope",
    "import:tensorflow.contrib.layers.python.layers.regularizers",
    "attr:tensorflow:contrib.layers.python.layers.initializers.xavier_initializer",
    "from:tensorflow.contrib.data:CsvDataset",
    "from:tensorflow.contrib.layers.python.layers:layer_norm_nonexistent",
    "from:tensorflow.contrib.data:StatsAggregator",
    "import:tensorflow.contrib.tensorboard.plugins.projector",
    "from:tensorflow.contrib.tensorboard.plugins:projector",
    "attr:tensorflow:contrib.tensorboard.plugins.projector.ProjectorConfig",
    "import:tensorflow.contrib.learn",
    # a served module bound to a name, then a name on it that is not served
    "attr:tensorflow.contrib.tpu.python.tpu:util.check_positive_integer",
    "attr:tensorflow.contrib.slim:conv2d",
])
def test_run_and_migrate_agree(spelling):
    assert run_serves(spelling) == migrate_serves(spelling), spelling


def test_a_script_on_deep_paths_runs_under_run_and_after_migrate(tmp_path):
    from tf1compat.migrate.driver import migrate_source

    script = tmp_path / "deep.py"
    script.write_text(textwrap.dedent(SCRIPT))
    under_run = run_cli("run", str(script))
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    migrated, findings = migrate_source(script.read_text(), str(script), "tf1compat")
    assert "tensorflow.contrib" not in migrated and "tf.contrib" not in migrated, migrated
    after = run_python(migrated)
    for out in (under_run.stdout, after.stdout):
        assert "net [[3.0, 3.0], [11.0, 11.0], [19.0, 19.0]]" in out
        assert "reg 0.1" in out  # 0.1 * sum(0.5**2 over 8 weights) / 2
        assert "names ['fc/weights', 'fc/biases'] 1" in out
