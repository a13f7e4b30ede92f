"""`tf.layers.X` -> `tf1compat.layers.X`, `tf.nn.rnn_cell.X` -> `tf1compat.rnn_cell.X`: legacy Keras.

Keras 3 has no `tf.layers` nor TF1 RNN cells: `tf.compat.v1.layers.dense`
raises "`dense` is not available with Keras 3" (so does
`tf.compat.v1.nn.rnn_cell.LSTMCell`) unless TF_USE_LEGACY_KERAS is set
before TensorFlow is imported. `tf1compat.layers` and `tf1compat.rnn_cell`
take the same functions and classes from tf_keras directly, and say what to
install when it is missing.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule


_MODULES = {
    "layers": ("tf1compat.layers", "tf.layers", "a Keras 3 model is the TF2 path, rewritten by "
               "hand"),
    "nn.rnn_cell": ("tf1compat.rnn_cell", "TF1 RNN cells", "tf.keras.layers.RNN / LSTM is the "
                    "TF2 path, rewritten by hand"),
}


class LegacyLayersRule(Rule):
    NAME = "layers"
    DESCRIPTION = "tf.layers -> tf1compat.layers, tf.nn.rnn_cell -> tf1compat.rnn_cell (legacy Keras)"
    TRIGGERS = ("layers", "rnn_cell")

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        alias = self.names.alias
        if alias is None:
            return updated_node
        name = get_full_name_for_node(original_node)
        for key, (module, what, path) in _MODULES.items():
            if name in (f"{alias}.compat.v1.{key}", f"{alias}.{key}"):
                break
        else:
            return updated_node
        AddImportsVisitor.add_needed_import(self.context, module)
        if key not in self.reported:
            self.reported.add(key)
            self.add(original_node, Kind.CHANGED,
                     f"{name}.* -> {module}.* (legacy Keras, tf_keras: Keras 3 has no "
                     f"{what}); {path}")
        return cst.parse_expression(module)
