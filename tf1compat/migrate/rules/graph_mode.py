"""Keeps a TF1 script a graph program: `tf.compat.v1.disable_v2_behavior()` after the imports.

TF2 runs eagerly: `tf.compat.v1.placeholder`, queues and `Session.run` of
ops built at the top level fail there. tf_upgrade_v2 renames them and stops;
this rule adds the one call that makes them graph code again, as TF1 had it
(and as `tf1compat run` does for the whole process).
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.session_options import program_start

_ALREADY = ("disable_v2_behavior", "disable_eager_execution")


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
        index = program_start(body, alias)
        if index == 0 or "tensorflow" not in updated_node.code_for_node(
                cst.Module(body[:index])):
            self.add(1, Kind.NOT_CONVERTED,
                     "tensorflow is not imported at the top of the file, so graph mode "
                     "(tf.compat.v1.disable_v2_behavior()) was not added; add it after the import")
            return updated_node
        while index < len(body) and m.matches(body[index], m.SimpleStatementLine(
                body=[m.Expr(m.Call(func=m.Attribute(value=m.Name("modern"),
                                                     attr=m.Name("configure"))))])):
            index += 1  # modern.configure must run before anything else touches TF
        body.insert(index, cst.parse_statement(f"{alias}.compat.v1.disable_v2_behavior()\n"))
        self.add(index + 1 if index < len(original_node.body) else 1, Kind.CHANGED,
                 f"added {alias}.compat.v1.disable_v2_behavior() after the imports: TF2 runs "
                 "eagerly, and this script builds a TF1 graph (placeholders, queues, "
                 "Session.run) that only runs in graph mode")
        return updated_node.with_changes(body=body)
