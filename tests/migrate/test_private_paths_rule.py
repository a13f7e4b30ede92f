"""Names from `tensorflow.python.*` modules -> their public TF1 names, as before/after strings."""

import textwrap

from tf1compat.migrate.driver import apply_rules
from tf1compat.migrate.findings import Kind


def migrated(code):
    return apply_rules(textwrap.dedent(code), "tf1compat")


def messages(findings, kind):
    return [f.message for f in findings if f.kind is kind and f.rule == "private-paths"]


def test_uses_through_a_module_become_public_names_and_the_import_goes():
    code, findings = migrated("""\
        import tensorflow as tf
        # freezing helpers
        from tensorflow.python.framework import graph_util
        from tensorflow.python.platform import gfile as files

        def freeze(sess, graph_def):
            return graph_util.convert_variables_to_constants(sess, graph_def, ["y"])

        exists = files.Exists("model.pb")
        """)
    assert code == textwrap.dedent("""\
        import tensorflow as tf
        # freezing helpers
        tf.compat.v1.disable_v2_behavior()

        def freeze(sess, graph_def):
            return tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, ["y"])

        exists = tf.compat.v1.gfile.Exists("model.pb")
        """)
    changed = messages(findings, Kind.CHANGED)
    assert any("graph_util.convert_variables_to_constants -> tf.compat.v1.graph_util."
               "convert_variables_to_constants" in m and "has no convert_variables_to_constants"
               in m for m in changed), changed
    assert "from tensorflow.python.platform import files removed: every use now has its " \
           "public TF1 name" in changed


def test_names_imported_themselves_and_a_missing_tensorflow_import():
    code, _ = migrated("""\
        from tensorflow.python.framework.graph_util import extract_sub_graph as sub, \\
            remove_training_nodes
        from tensorflow.python.util.compat import as_bytes
        graph = remove_training_nodes(sub(graph_def, ["y"]))
        data = as_bytes("x")
        """)
    assert code == textwrap.dedent("""\
        import tensorflow
        tensorflow.compat.v1.disable_v2_behavior()

        graph = tensorflow.compat.v1.graph_util.remove_training_nodes(tensorflow.compat.v1.graph_util.extract_sub_graph(graph_def, ["y"]))
        data = tensorflow.compat.v1.compat.as_bytes("x")
        """)


def test_private_names_stay_with_a_note_and_missing_ones_are_reported():
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.ops import control_flow_ops
        from tensorflow.python.framework import tensor_shape, ops
        z = control_flow_ops.with_dependencies([x], y)
        shape = tensor_shape.scalar()
        graph = ops.get_default_graph()
        """)
    assert "from tensorflow.python.ops import control_flow_ops\n" in code
    assert "from tensorflow.python.framework import tensor_shape\n" in code  # ops went
    assert "graph = tf.compat.v1.get_default_graph()" in code
    notes = messages(findings, Kind.NOTE)
    assert notes == ["tensorflow.python.ops.control_flow_ops.with_dependencies kept: TF 1.15 gave "
                     "it no public name and TF 2.21's module still has it (a private name: it "
                     "may move)"]
    [missing] = messages(findings, Kind.NOT_CONVERTED)
    assert missing.startswith("tensorflow.python.framework.tensor_shape.scalar left as is: TF "
                              "2.21 has no scalar")
    assert "under `tf1compat run` too" in missing


def test_a_module_used_as_a_value_or_a_rebound_name_keeps_its_import():
    code, _ = migrated("""\
        import tensorflow as tf
        from tensorflow.python.framework import graph_util
        from tensorflow.python.util.compat import as_text
        helpers = [graph_util]
        graph_util.extract_sub_graph(g, ["y"])
        def as_text(value):
            return value
        """)
    assert "from tensorflow.python.framework import graph_util\n" in code
    assert "tf.compat.v1.graph_util.extract_sub_graph(g" in code
    assert "from tensorflow.python.util.compat import as_text\n" in code


def test_import_as_reads_attributes_as_python_does():
    code, _ = migrated("""\
        import tensorflow as tf
        import tensorflow.python.training.moving_averages as averages
        ema = averages.ExponentialMovingAverage(0.9)
        """)
    assert code == ("import tensorflow as tf\ntf.compat.v1.disable_v2_behavior()\n"
                    "ema = tf.compat.v1.train.ExponentialMovingAverage(0.9)\n")


def test_legacy_keras_cells_go_on_to_tf1compat():
    code, _ = migrated("""\
        import tensorflow as tf
        from tensorflow.python.ops import rnn_cell
        cell = rnn_cell.LSTMCell(4)
        """)
    assert "cell = tf1compat.rnn_cell.LSTMCell(4)" in code
    assert "tensorflow.python" not in code


def test_a_name_imported_itself_and_read_elsewhere_is_bound_to_its_public_name_in_place():
    """`cond` is written nowhere here (a module re-exporting it): left as an import it fails on
    TF 2.21, whose control_flow_ops has no cond; `convert_to_tensor` would bind TF 2's."""
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.ops.control_flow_ops import cond, with_dependencies
        from tensorflow.python.framework.ops import convert_to_tensor as to_tensor
        __all__ = ["cond", "to_tensor", "with_dependencies"]
        """)
    graph_mode = "tf.compat.v1.disable_v2_behavior()\n"
    assert code == textwrap.dedent("""\
        import tensorflow as tf
        tf.compat.v1.disable_v2_behavior()
        from tensorflow.python.ops.control_flow_ops import with_dependencies; cond = tf.compat.v1.cond
        to_tensor = tf.compat.v1.convert_to_tensor
        __all__ = ["cond", "to_tensor", "with_dependencies"]
        """)
    namespace = {}  # run here without graph mode, which would outlast this test
    exec(compile(code.replace(graph_mode, ""), "x.py", "exec"), namespace)  # noqa: S102
    import tensorflow as tf

    assert namespace["cond"] is tf.compat.v1.cond
    assert namespace["to_tensor"] is tf.compat.v1.convert_to_tensor
    changed = messages(findings, Kind.CHANGED)
    assert any(m.startswith("tensorflow.python.ops.control_flow_ops.cond -> tf.compat.v1.cond")
               for m in changed), changed


def test_calls_of_private_names_are_written_for_the_function_tf2_has_there():
    """TF 2.21's `top_k` takes `index_type` where TF 1.15's took `name`; its `WatchOptions`
    renamed `node_name_regex_whitelist` to `..._allowlist` in place; its `internal_convert_to_
    tensor` has `dtype_hint` where `ctx` was. Each call binds as TF 1.15's did."""
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.ops import nn_ops
        from tensorflow.python import debug as tf_debug
        from tensorflow.python.framework.ops import internal_convert_to_tensor
        values, indices = nn_ops.top_k(tf.constant([1.0, 3.0, 2.0]), 2, True, "best")
        watch = tf_debug.WatchOptions(["DebugIdentity"], node_name_regex_whitelist="dense.*")
        tensor = internal_convert_to_tensor(1.0, None, "one", False, None, None)
        """)
    assert 'nn_ops.top_k' not in code
    assert 'tf.compat.v1.math.top_k(tf.constant([1.0, 3.0, 2.0]), 2, True, name="best")' in code
    assert 'WatchOptions(["DebugIdentity"], node_name_regex_allowlist="dense.*")' in code
    assert 'internal_convert_to_tensor(1.0, None, "one", False, None, ctx=None)' in code
    changed = messages(findings, Kind.CHANGED)
    assert any("top_k(...): positional name= -> keywords" in m for m in changed), changed
    assert any("node_name_regex_whitelist= -> node_name_regex_allowlist=" in m
               for m in changed), changed
    namespace = {}
    exec(compile(code.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py", "exec"),
         namespace)  # noqa: S102 - eager here, so the values can be read
    assert namespace["values"].numpy().tolist() == [3.0, 2.0]
    assert namespace["indices"].dtype.name == "int32"  # TF 1.15's; "best" reached no index_type
    assert namespace["watch"].node_name_regex_allowlist == "dense.*"
    assert float(namespace["tensor"]) == 1.0


def test_a_module_tf2_lacks_is_bound_to_tf1_view_of_it():
    """TF 2.21 has no `tensorflow.python.eager.profiler`: as written the import fails. The
    module becomes TF 1.15's as `run` serves it; a name nothing serves fails where it is used,
    saying so, as under `run`."""
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.eager import profiler
        from tensorflow.python.util import deprecation_wrapper
        deprecation_wrapper._PER_MODULE_WARNING_LIMIT = 0
        """)
    assert "from tensorflow.python.eager import profiler" not in code
    assert "profiler = tf1compat.tf1_module('tensorflow.python.eager.profiler')" in code
    assert "import tf1compat\n" in code
    namespace = {}
    exec(compile(code.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py", "exec"),
         namespace)  # noqa: S102
    profiler = namespace["profiler"]
    assert profiler.__name__ == "tensorflow.python.eager.profiler"
    assert "start_profiler_server" in dir(profiler)
    import pytest

    from tf1compat.runner.private_modules import PrivateNameError

    with pytest.raises(PrivateNameError, match="start_profiler_server.*TF 1.15 gave it no "
                                               "public name"):
        profiler.start_profiler_server(6009)
    changed = messages(findings, Kind.CHANGED)
    assert any(m.startswith("tensorflow.python.eager.profiler -> tf1compat.tf1_module(")
               for m in changed), changed


def test_tf1_module_refuses_a_module_neither_side_has():
    import pytest

    import tf1compat
    from tf1compat.runner.private_modules import PrivateImportError

    with pytest.raises(PrivateImportError, match="tensorflow.python.no_such_module"):
        tf1compat.tf1_module("tensorflow.python.no_such_module")


def test_tf115s_tf_keras_modules_become_tf_keras_tf1_api():
    """TF 1.15's `tensorflow.python.keras` was its `tf.keras`; TF 2.21's frozen copy there lacks
    BatchNormalization and is not the Keras `tf.keras` gives after migrate."""
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.keras.layers import BatchNormalization, Conv2D
        from tensorflow.python.keras import backend as K
        layer = Conv2D(2, 3, 1, "same", "channels_last", 1, "relu")
        norm = BatchNormalization()
        floatx = K.floatx()
        """)
    assert code == textwrap.dedent("""\
        import tensorflow as tf
        import tf_keras.api._v1.keras

        layer = tf_keras.api._v1.keras.layers.Conv2D(2, 3, 1, "same", "channels_last", 1, activation="relu")
        norm = tf_keras.api._v1.keras.layers.BatchNormalization()
        floatx = tf_keras.api._v1.keras.backend.floatx()
        """)
    namespace = {}
    exec(compile(code, "x.py", "exec"), namespace)  # noqa: S102
    import tf_keras

    assert namespace["layer"].activation is tf_keras.activations.relu
    assert type(namespace["norm"]) is tf_keras.api._v1.keras.layers.BatchNormalization
    changed = messages(findings, Kind.CHANGED)
    assert any(m.startswith("tensorflow.python.keras.layers.BatchNormalization -> tf_keras.api."
                            "_v1.keras.layers.BatchNormalization") for m in changed), changed


def test_tf115s_estimator_modules_become_tf1compat_tf1_module():
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.estimator.model_fn import ModeKeys
        from tensorflow.python.estimator import estimator as estimator_lib
        """)
    assert "ModeKeys = tf1compat.tf1_module('tensorflow.python.estimator.model_fn').ModeKeys" \
        in code
    assert "estimator_lib = tf1compat.tf1_module('tensorflow.python.estimator').estimator" in code
    namespace = {}
    exec(compile(code.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py", "exec"),
         namespace)  # noqa: S102
    import tf1compat.estimator

    assert namespace["ModeKeys"] is tf1compat.estimator.ModeKeys
    assert namespace["estimator_lib"].Estimator is tf1compat.estimator.Estimator
    changed = messages(findings, Kind.CHANGED)
    assert any("TF 1.15's tensorflow.python.estimator was tensorflow-estimator" in m
               for m in changed), changed


def test_tf115s_all_reduce_module_becomes_tf1compat_tf1_module():
    code, findings = migrated("""\
        import tensorflow as tf
        from tensorflow.python.distribute import all_reduce
        import tensorflow.python.distribute.all_reduce as ar
        out = all_reduce.build_shuffle_all_reduce
        """)
    assert "all_reduce = tf1compat.tf1_module('tensorflow.python.distribute.all_reduce')" in code
    assert "ar = tf1compat.tf1_module('tensorflow.python.distribute.all_reduce')" in code
    namespace = {}
    exec(compile(code.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py", "exec"),
         namespace)  # noqa: S102
    from tf1compat.contrib import graph_all_reduce

    assert namespace["out"] is graph_all_reduce.build_shuffle_all_reduce
    assert namespace["ar"] is graph_all_reduce
    assert any("TF 1.15's module is not in TF 2.21" in m
               for m in messages(findings, Kind.CHANGED))
