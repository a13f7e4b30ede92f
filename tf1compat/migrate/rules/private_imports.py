"""Removes the `tensorflow.python.*` imports whose every use the private-paths rule rewrote.

Runs last, so the rules before it report lines of the script as written. An
import goes only when the private-paths rule emptied it (`EMPTIED`) and no
code reads its name any more; a line of such imports only goes whole, and
the comments above it move to the next line.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import PositionProvider, ScopeProvider

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, without_statements
from tf1compat.migrate.rules.private_paths import EMPTIED, bound_name, from_module, imports


class PrivateImportsRule(Rule):
    NAME = "private-paths"
    DESCRIPTION = "removes the tensorflow.python.* imports left unused by the private-paths rule"
    TRIGGERS = ("tensorflow.python",)
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        emptied = set(self.context.scratch.get(EMPTIED, ()))
        self.removed: dict[cst.CSTNode, set[str]] = {}  # import statement -> names it loses
        for imp in imports(node) if emptied else ():
            scope = self.get_metadata(ScopeProvider, imp, None)
            names = () if isinstance(imp, cst.ImportFrom) and \
                isinstance(imp.names, cst.ImportStar) else imp.names
            for alias in names:
                bound = bound_name(alias)
                if (from_module(imp), bound) in emptied and scope is not None and not any(
                        a.references for a in scope.assignments[bound]
                        if getattr(a, "node", None) is imp):
                    self.removed.setdefault(imp, set()).add(bound)
        self.whole_lines = [line for line in node.body if self._all_removed(line)]
        self.in_whole_lines = {small for line in self.whole_lines for small in line.body}

    def _all_removed(self, line: cst.CSTNode) -> bool:
        """Whether a top-level line is only imports that lose every name."""
        if not isinstance(line, cst.SimpleStatementLine):
            return False
        return all(small in self.removed and all(
            bound_name(alias) in self.removed[small] for alias in small.names)
            for small in line.body)

    def _leave(self, original_node, updated_node, what: str):
        gone = self.removed.get(original_node)
        if not gone:
            return updated_node
        self.add(original_node, Kind.CHANGED, f"{what} {', '.join(sorted(gone))} removed: "
                                              "every use now has its public TF1 name")
        if original_node in self.in_whole_lines:
            return updated_node  # the line goes whole in leave_Module
        kept = [alias for alias in updated_node.names if bound_name(alias) not in gone]
        if not kept:
            return cst.RemoveFromParent()
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=kept)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        return self._leave(original_node, updated_node,
                           f"from {from_module(original_node)} import")

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import):
        return self._leave(original_node, updated_node, "import")

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.whole_lines:
            return updated_node
        return updated_node.with_changes(body=without_statements(
            original_node.body, updated_node.body, set(self.whole_lines)))
