"""`tf.layers.X` -> `tf1compat.layers.X`: legacy Keras layers that work without TF_USE_LEGACY_KERAS.

Keras 3 has no `tf.layers`: `tf.compat.v1.layers.dense` raises "`dense` is
not available with Keras 3" unless TF_USE_LEGACY_KERAS is set before
TensorFlow is imported. `tf1compat.layers` takes the same functions and
classes from tf_keras directly, and says what to install when it is missing.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule


class LegacyLayersRule(Rule):
    NAME = "layers"
    DESCRIPTION = "tf.layers -> tf1compat.layers (legacy Keras)"

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        alias = self.names.alias
        if alias is None:
            return updated_node
        name = get_full_name_for_node(original_node)
        if name not in (f"{alias}.compat.v1.layers", f"{alias}.layers"):
            return updated_node
        AddImportsVisitor.add_needed_import(self.context, "tf1compat.layers")
        if "layers" not in self.reported:
            self.reported.add("layers")
            self.add(original_node, Kind.CHANGED,
                     f"{name}.* -> tf1compat.layers.* (legacy Keras, tf_keras: Keras 3 has no "
                     "tf.layers); a Keras 3 model is the TF2 path, rewritten by hand")
        return cst.parse_expression("tf1compat.layers")
