"""The table of TF1 names in TensorFlow's own modules, and `run`'s views of those modules.

In-process: the listing's data, the homes TF 2.21 gives each name, and the
views user code gets (a fresh TF1 module and usage record per test).
"""

import json

import pytest
import tensorflow as tf

from tf1compat.runner.private_paths import homes, table
from tf1compat.runner import private_modules
from tf1compat.runner.private_modules import PrivateImportError, PrivateModule, PrivateNameError
from tf1compat.runner.shim import TF1Module
from tf1compat.runner.usage import Usage
from tf1_reference import tf115_private_modules

GRAPH_UTIL = "tensorflow.python.framework.graph_util"


def _public(v1_name):
    value = tf.compat.v1
    for part in v1_name.split("."):
        value = getattr(value, part)
    return value


@pytest.fixture
def tree():
    usage = Usage()
    return private_modules.tree_of(TF1Module(tf.compat.v1, "", legacy_keras=True), usage)


def test_the_listing_is_the_census_modules_and_matches_its_digest():
    """Every module the census counts is listed (or is an attribute path, not a module): a
    census grown since the listing fails here, naming the command that lists it anew."""
    document = table.document()
    assert sorted([*document["modules"], *document["not_modules"]]) == \
        tf115_private_modules.wanted_modules(), document["regenerate"]
    assert "tensorflow.python.framework.graph_util" in document["modules"]
    assert "tensorflow.python.keras.layers" in document["modules"]  # TF 1.15's tf.keras
    assert not any(name.startswith("tensorflow.python.estimator") for name in document["modules"])
    assert document["tensorflow"] == "1.15.0"
    assert tf115_private_modules.digest(document["modules"]) == table.digest(
        document["modules"]) == document["digest"]
    assert "tests/tf1_reference/tf115_private_modules.py" in document["regenerate"]


def test_a_listing_edited_by_hand_is_refused_naming_the_file_and_the_fix(tmp_path):
    document = json.loads(open(table.DATA, encoding="utf-8").read())
    document["modules"][GRAPH_UTIL]["names"]["convert_variables_to_constants"][2] = []
    edited = tmp_path / "tf115_modules.json"
    edited.write_text(json.dumps(document))
    with pytest.raises(table.ListingError) as raised:
        table.document(str(edited))
    message = str(raised.value)
    assert str(edited) in message and "does not match its digest" in message
    assert "tests/tf1_reference/tf115_private_modules.py" in message


def test_every_public_tf1_name_is_served_by_its_tf_compat_v1_object():
    """Decided by the data: each name TF 1.15 exported is TF 2.21's tf.compat.v1 object."""
    checked = moved = 0
    for module in table.modules():
        for name in table.names(module):
            entry = table.tf1_name(module, name)
            if entry.kind == "module" or not entry.v1_names or \
                    any(v1.startswith(("nn.rnn_cell.", "layers.", "keras."))
                        for v1 in entry.v1_names):
                continue  # legacy Keras's: checked by the three-ways test and the one below
            home = homes.find(module, name, _public)
            if home.public is None:
                assert home.status == "unsupported" and "not in TF 2.21's" in home.note, home
                continue
            checked += 1
            assert home.value is _public(home.public), (module, name)
            real = getattr(homes.import_quietly(module), name, homes.MISSING)
            assert (home.status == "native") == (real is home.value or entry.kind == "constant"
                                                 and real == home.value), (module, name)
            moved += home.status == "mapped"
    assert checked > 1500 and 50 < moved < checked / 4, (checked, moved)


def test_homes_of_moved_kept_and_missing_names():
    moved = homes.find(GRAPH_UTIL, "convert_variables_to_constants", _public)
    assert (moved.status, moved.public) == ("mapped", "graph_util.convert_variables_to_constants")
    assert "has no convert_variables_to_constants" in moved.note
    changed = homes.find("tensorflow.python.framework.ops", "name_scope", _public)
    assert changed.status == "mapped" and changed.value is tf.compat.v1.name_scope
    assert "is another function" in changed.note
    kept = homes.find("tensorflow.python.ops.control_flow_ops", "with_dependencies", _public)
    from tensorflow.python.ops import control_flow_ops

    assert (kept.status, kept.value) == ("native", control_flow_ops.with_dependencies)
    gone = homes.find("tensorflow.python.framework.tensor_shape", "scalar", _public)
    assert gone.status == "unsupported" and gone.value is None
    assert "tensorflow/python/framework/tensor_shape.py" in gone.note
    assert "TF 1.15 gave it no public name" in gone.note
    never = homes.find(GRAPH_UTIL, "no_such_function", _public)
    assert never.status == "unsupported" and "neither TF 1.15's" in never.note
    from tensorflow.python.util import nest

    renamed = homes.find("tensorflow.python.util.nest", "is_sequence", _public)
    assert (renamed.status, renamed.value) == ("mapped", nest.is_nested)
    assert renamed.value([1, (2,)]) and not renamed.value("text")  # TF 1.15's answers


def test_submodules_are_tf115s():
    assert homes.submodule("tensorflow.python", "ops") == "tensorflow.python.framework.ops"
    assert homes.submodule("tensorflow.python", "debug") == "tensorflow.python.debug"
    assert homes.submodule("tensorflow.python.framework", "graph_util") == GRAPH_UTIL
    assert homes.submodule(GRAPH_UTIL, "convert_variables_to_constants") is None


def test_a_view_serves_tf1_names_and_records_each_read(tree):
    view = tree.module(GRAPH_UTIL)
    assert isinstance(view, PrivateModule)
    assert view.convert_variables_to_constants is \
        tf.compat.v1.graph_util.convert_variables_to_constants
    assert view.extract_sub_graph is tf.compat.v1.graph_util.extract_sub_graph
    view.convert_variables_to_constants
    symbols = tree.usage.symbols
    path = "python.framework.graph_util.convert_variables_to_constants"
    assert symbols[path].status == "mapped" and symbols[path].uses == 2
    assert symbols[path].target == "tf.compat.v1.graph_util.convert_variables_to_constants"
    assert symbols["python.framework.graph_util.extract_sub_graph"].status == "native"
    assert tree.module("tensorflow.python").framework.graph_util is view
    assert "convert_variables_to_constants" in dir(view)


def test_a_name_nothing_serves_fails_naming_it_and_what_to_do(tree):
    view = tree.module("tensorflow.python.framework.tensor_shape")
    assert view.TensorShape([2]).as_list() == [2]
    with pytest.raises(PrivateNameError) as raised:
        view.scalar
    message = str(raised.value)
    assert message.startswith("tensorflow.python.framework.tensor_shape.scalar: ")
    assert "copy it from TF 1.15's source" in message
    assert isinstance(raised.value, AttributeError)
    assert tree.usage.symbols["python.framework.tensor_shape.scalar"].status == "unsupported"


def test_imports_check_their_names_and_modules(tree):
    calls = []
    module = tree.import_module("tensorflow.python.framework.graph_util",
                                ("convert_variables_to_constants",), lambda: calls.append(1))
    assert module is tree.module(GRAPH_UTIL) and calls == [1]
    assert tree.import_module(GRAPH_UTIL, None, lambda: None) is tree.root
    with pytest.raises(PrivateImportError) as raised:
        tree.import_module("tensorflow.python.ops.variables", ("RefVariable",), lambda: None)
    assert "cannot import RefVariable from tensorflow.python.ops.variables" in str(raised.value)

    def missing():
        raise ModuleNotFoundError("No module named 'tensorflow.python.nothing'")

    with pytest.raises(PrivateImportError) as raised:
        tree.import_module("tensorflow.python.nothing", ("x",), missing)
    assert "'tensorflow.python.nothing'" in str(raised.value)
    assert "public tf.compat.v1 name" in str(raised.value)


KERAS_UNDER_RUN = '''
import json
from tf1compat.runner.user_view import open_view

view = open_view()
found = view.run("""
import tensorflow as tf
from tensorflow.python.keras.layers import BatchNormalization, Conv2D
from tensorflow.python.keras import backend as K
from tensorflow.python.keras.preprocessing.sequence import pad_sequences
layer = Conv2D(2, 3, 1, "same", "channels_last", 1, "relu")  # TF 1.15's order: relu, 7th
model = tf.keras.Sequential([tf.keras.layers.InputLayer((4, 4, 1)), layer,
                             BatchNormalization()])
result = {
    "same_classes": [BatchNormalization is tf.keras.layers.BatchNormalization,
                     Conv2D is tf.keras.layers.Conv2D],
    "module": type(layer).__module__,
    "activation": layer.activation.__name__,
    "session_is_keras": K.get_session() is tf.keras.backend.get_session(),
    "padded": pad_sequences([[1, 2], [3]]).tolist(),
    "outputs": list(model.output_shape),
}
""")["result"]
print(json.dumps(found))
'''


def test_tf115s_tf_keras_modules_are_legacy_keras_under_run():
    """TF 1.15's `tensorflow.python.keras` was its `tf.keras`: under `run` its names are the
    legacy Keras objects `tf.keras` gives (TF 2.21's frozen copy there has no
    BatchNormalization, and its layers do not mix with tf_keras's models)."""
    from isolated import run_json

    found = run_json(KERAS_UNDER_RUN)
    assert found["same_classes"] == [True, True]
    assert found["module"].startswith("tf_keras.")
    assert found["activation"] == "relu"
    assert found["session_is_keras"] is True
    assert found["padded"] == [[1, 2], [0, 3]]
    assert found["outputs"] == [None, 4, 4, 2]


ESTIMATOR_UNDER_RUN = '''
import json
from tf1compat.runner.user_view import open_view

view = open_view()
found = view.run("""
import tensorflow as tf
from tensorflow.python.estimator.model_fn import ModeKeys, EstimatorSpec
from tensorflow.python.estimator import estimator
from tensorflow.python.estimator.export.export_output import PredictOutput
from tensorflow.python.estimator.estimator import _load_global_step_from_checkpoint_dir
try:
    from tensorflow.python.estimator.no_such_module import Thing
    missing = None
except ImportError as error:
    missing = str(error)
result = {
    "same": [ModeKeys is tf.estimator.ModeKeys, EstimatorSpec is tf.estimator.EstimatorSpec,
             estimator.Estimator is tf.estimator.Estimator,
             PredictOutput is tf.estimator.export.PredictOutput],
    "step": _load_global_step_from_checkpoint_dir("/nonexistent"),
    "missing": missing,
}
""")["result"]
print(json.dumps(found))
'''


def test_tf115s_estimator_modules_are_tensorflow_estimators_under_run():
    """TF 1.15's `tensorflow.python.estimator.*` modules were tensorflow-estimator's: under
    `run` they are, with tf1compat.estimator's own classes where `tf.estimator` has them."""
    from isolated import run_json

    found = run_json(ESTIMATOR_UNDER_RUN)
    assert found["same"] == [True, True, True, True]
    assert found["step"] == 0  # no checkpoint: step 0, as TF 1.15's helper said
    assert "tensorflow.python.estimator.no_such_module" in found["missing"]
    assert "use the public tf.estimator names" in found["missing"]
