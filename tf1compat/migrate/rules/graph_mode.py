"""Keeps a TF1 script a graph program: `tf.compat.v1.disable_v2_behavior()` after the imports.

TF2 runs eagerly: `tf.compat.v1.placeholder`, queues and `Session.run` of
ops built at the top level fail there. tf_upgrade_v2 renames them and stops;
this rule adds the one call that makes them graph code again, as TF1 had it
(and as `tf1compat run` does for the whole process).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
import libcst.matchers as m
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

_ALREADY = ("disable_v2_behavior", "disable_eager_execution")


def _imports(statement: cst.CSTNode) -> list[str]:
    """The modules a top-level import line imports, or [] for any other statement."""
    if not isinstance(statement, cst.SimpleStatementLine) or not all(
            isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
        return []
    modules = []
    for small in statement.body:
        if isinstance(small, cst.Import):
            modules += [get_full_name_for_node(alias.name) or "" for alias in small.names]
        elif small.module is not None and not small.relative:
            modules.append(get_full_name_for_node(small.module) or "")
    return modules or [""]


def _after_tensorflow_import(body) -> Optional[int]:
    """Index just after the block of top-level imports holding the first `import tensorflow`.

    Statements before that import (a docstring after `from __future__`, data read with the
    MNIST reader before `import tensorflow as tf`) cannot use the script's `tf`; the call
    goes after the import and the imports that follow it, before any graph is built.
    """
    for position, statement in enumerate(body):
        if any(module == "tensorflow" or module.startswith("tensorflow.")
               for module in _imports(statement)):
            index = position + 1
            while index < len(body) and _imports(body[index]):
                index += 1
            return index
    return None


class GraphModeRule(Rule):
    NAME = "graph-mode"
    DESCRIPTION = "add tf.compat.v1.disable_v2_behavior() to scripts that use TF1 graph APIs"

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        alias = self.names.alias
        if alias is None:
            return updated_node
        uses_v1 = False
        for node in m.findall(updated_node, m.Attribute() | m.Call()):
            name = get_full_name_for_node(node) or ""
            if name.split(".")[-1] in _ALREADY:
                return updated_node  # the script already chose graph mode
            if name.startswith(f"{alias}.compat.v1.") or name.startswith("tf1compat."):
                uses_v1 = True
        if not uses_v1:
            return updated_node
        body = list(updated_node.body)
        index = _after_tensorflow_import(body)
        if index is None:
            self.add(1, Kind.NOT_CONVERTED,
                     "tensorflow is not imported at the top of the file, so graph mode "
                     "(tf.compat.v1.disable_v2_behavior()) was not added; add it after the import")
            return updated_node
        while index < len(body) and m.matches(body[index], m.SimpleStatementLine(
                body=[m.Expr(m.Call(func=m.Attribute(value=m.Name("modern"),
                                                     attr=m.Name("configure"))))])):
            index += 1  # modern.configure must run before anything else touches TF
        body.insert(index, cst.parse_statement(f"{alias}.compat.v1.disable_v2_behavior()\n"))
        # The line of the import the call now follows (a statement index is no line number).
        self.add(original_node.body[index - 1] if len(original_node.body) == len(body) - 1
                 else 1, Kind.CHANGED,
                 f"added {alias}.compat.v1.disable_v2_behavior() after the imports: TF2 runs "
                 "eagerly, and this script builds a TF1 graph (placeholders, queues, "
                 "Session.run) that only runs in graph mode")
        return updated_node.with_changes(body=body)
