"""`tf.estimator.X` -> `tf1compat.estimator.X`: Estimator code stays Estimator code.

TensorFlow removed `tf.estimator` (and `tf.compat.v1.estimator`) in 2.16, and
an Estimator has no TF2 form a rule could write: the model_fn, input_fn and
hooks are TF1 graph code. So the names are pointed at `tf1compat.estimator`,
TF1's Estimator served on TF 2.21, and the migrated script runs under plain
python. Every distinct name pointed elsewhere is reported once, with its line.
Both targets do the same: `modern` has no Estimator.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

HOME = "tf1compat.estimator"
_MODULES = ("tensorflow.estimator", "tensorflow.compat.v1.estimator")


class EstimatorRule(Rule):
    NAME = "estimator"
    DESCRIPTION = "tf.estimator -> tf1compat.estimator (TF1's Estimator, served on TF 2.21)"
    TRIGGERS = ("estimator",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()
        self.inner: set[int] = set()

    def _estimator_name(self, node: cst.Attribute) -> Optional[str]:
        """'Estimator', 'inputs.numpy_input_fn', '' for the namespace itself; None if not one."""
        alias = self.names.alias
        name = get_full_name_for_node(node)
        if alias is None or name is None:
            return None
        for prefix in (f"{alias}.compat.v1.estimator", f"{alias}.estimator"):
            if name == prefix:
                return ""
            if name.startswith(prefix + "."):
                return name[len(prefix) + 1:]
        return None

    def _report(self, node: cst.CSTNode, old: str, new: str) -> None:
        if old not in self.reported:
            self.reported.add(old)
            self.add(node, Kind.CHANGED, f"{old} -> {new} (TensorFlow removed tf.estimator in "
                     "2.16; tf1compat serves TF1's Estimator on TF 2.21)")

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # Report the full name (tf.estimator.RunConfig) once, not each of its prefixes.
        if id(node) in self.inner:
            return
        rest = self._estimator_name(node)
        if rest:
            self._report(node, get_full_name_for_node(node), f"{HOME}.{rest}")
            inner = node.value
            while isinstance(inner, cst.Attribute):
                self.inner.add(id(inner))
                inner = inner.value

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        if self._estimator_name(original_node) != "":
            return updated_node
        if id(original_node) not in self.inner:  # the bare namespace: `est = tf.estimator`
            self._report(original_node, get_full_name_for_node(original_node), HOME)
        AddImportsVisitor.add_needed_import(self.context, HOME)
        return cst.parse_expression(HOME)

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        module = get_full_name_for_node(original_node.module) if original_node.module else None
        if module is None or original_node.relative:
            return updated_node
        for prefix in _MODULES:
            if module == prefix or module.startswith(prefix + "."):
                new = HOME + module[len(prefix):]
                self._report(original_node, f"from {module} import", f"from {new} import")
                return updated_node.with_changes(module=cst.parse_expression(new))
        return updated_node
