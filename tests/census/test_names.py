"""The census's canonical names, and finding each again in a module tree."""

import types

import pytest

from tf1compat.census import names


@pytest.mark.parametrize("path, name", [
    ("tensorflow", "tf"),
    ("tensorflow.train.AdamOptimizer", "tf.train.AdamOptimizer"),
    ("tensorflow.compat.v1.train.AdamOptimizer", "tf.train.AdamOptimizer"),
    ("tensorflow.compat.v1", "tf.compat.v1"),
    ("tensorflow.compat.v2.nn.relu", "tf.compat.v2.nn.relu"),
    ("tensorflow.contrib.layers.flatten", "tf.contrib.layers.flatten"),
    ("tensorflow.contrib.tensorboard.plugins.projector", "tf.contrib.tensorboard.plugins.projector"),
    ("tensorflow.keras.models.Model", "tf.keras.models.Model"),
    ("tensorflow.python.framework.graph_util.convert_variables_to_constants",
     "tensorflow.python.framework.graph_util:convert_variables_to_constants"),
    ("tensorflow.contrib.framework.python.ops.arg_scope",
     "tensorflow.contrib.framework.python.ops:arg_scope"),
    ("tensorflow.examples.tutorials.mnist.input_data", "tensorflow.examples.tutorials.mnist:input_data"),
    ("tensorflow.core.protobuf.config_pb2.ConfigProto",
     "tensorflow.core.protobuf.config_pb2:ConfigProto"),
    ("tensorflow.models.rnn.rnn_cell", "tensorflow.models.rnn:rnn_cell"),  # TF 0.x
    ("tensorflow.python", "tensorflow:python"),
])
def test_canonical_names(path, name):
    assert names.canonical(path) == name
    assert names.public(name) == name.startswith("tf")


def test_a_path_not_from_tensorflow_is_refused():
    with pytest.raises(ValueError, match="not a path from tensorflow: 'numpy.float32'"):
        names.canonical("numpy.float32")


@pytest.mark.parametrize("path, kept", [
    ("tensorflow.nn.relu", 3),
    ("tensorflow.estimator.ModeKeys.TRAIN", 3),
    ("tensorflow.float32.as_numpy_dtype", 2),
    ("tensorflow.float32", 2),
    ("tensorflow.nn.__dict__.keys", 2),
    ("tensorflow.__version__", 2),
])
def test_kept_parts(path, kept):
    assert names.kept(path.split(".")) == kept


def _tree():
    """A fake `tensorflow`: public `train`, a source-tree module imported on demand."""
    modules = {}

    def module(name, **attributes):
        made = types.ModuleType(name)
        made.__dict__.update(attributes)
        modules[name] = made
        return made

    adam = type("AdamOptimizer", (), {})
    convert = types.SimpleNamespace(marker=object())
    module("tensorflow.python.framework.graph_util", convert_variables_to_constants=convert)
    module("tensorflow.python.framework")
    module("tensorflow.python")
    tensorflow = module("tensorflow", train=module("tensorflow.train", AdamOptimizer=adam))

    def import_module(name):
        if name not in modules:
            raise ModuleNotFoundError(f"No module named {name!r}")
        return modules[name]

    return tensorflow, import_module, adam, convert


def test_resolve_reads_public_names_from_tensorflow_and_imports_what_is_a_submodule():
    tensorflow, import_module, adam, convert = _tree()
    assert names.resolve("tf", tensorflow, import_module) is tensorflow
    assert names.resolve("tf.train.AdamOptimizer", tensorflow, import_module) is adam
    assert names.resolve("tensorflow.python.framework.graph_util:convert_variables_to_constants",
                         tensorflow, import_module) is convert
    assert names.resolve("tensorflow.python.framework:graph_util", tensorflow, import_module) \
        is import_module("tensorflow.python.framework.graph_util")
    assert names.resolve("tensorflow:python", tensorflow, import_module) \
        is import_module("tensorflow.python")
    # a part before the colon that is an object, not a module: read from its module
    assert names.resolve("tensorflow.python.framework.graph_util.convert_variables_to_constants"
                         ":marker", tensorflow, import_module) is convert.marker
    with pytest.raises(ModuleNotFoundError, match="tensorflow.train.LazyAdamOptimizer"):
        names.resolve("tf.train.LazyAdamOptimizer", tensorflow, import_module)


@pytest.mark.parametrize("name", ["tf.train.AdamOptimizer", "tf",
                                  "tensorflow.python.framework.graph_util:x"])
def test_module_path_is_the_path_a_name_stands_for(name):
    assert names.canonical(names.module_path(name)) == name
