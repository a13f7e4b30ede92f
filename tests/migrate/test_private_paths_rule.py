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
