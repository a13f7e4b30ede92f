"""A migrated TF1 program prints its results as it did: NumPy 1's scalars, not `np.float32(1.5)`.

TF1 programs ran on NumPy 1, where `print(sess.run([cost, W]))` printed `[1.5, array(...)]`;
NumPy 2 prints the same list as `[np.float32(1.5), array(...)]` (scalars' repr changed; their
str did not). `tf1compat run` makes scalars print as NumPy 1 printed them with NumPy's own
`set_printoptions(legacy="1.25")`; a migrated program gets the same line, right after the
`disable_v2_behavior()` that makes it a graph program (so only programs that print get it,
never a library module), and `import numpy` where the file has no alias for it.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.numpy1 import numpy_aliases
from tf1compat.runner.numpy1 import PRINT_LEGACY

_GRAPH_MODE = m.SimpleStatementLine(body=[m.Expr(m.Call(func=m.Attribute(
    attr=m.Name("disable_v2_behavior"))))])


class NumPy1PrintingRule(Rule):
    NAME = "numpy1-printing"
    DESCRIPTION = ("np.set_printoptions(legacy='1.25') in migrated programs: scalars print as "
                   "NumPy 1 printed them")
    TRIGGERS = ("disable_v2_behavior",)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = list(updated_node.body)
        index = next((i for i, statement in enumerate(body) if m.matches(statement, _GRAPH_MODE)),
                     None)
        if index is None or "set_printoptions" in updated_node.code or not m.findall(
                updated_node, m.Call(func=m.Name("print"))):
            return updated_node  # no program, printing chosen already, or nothing printed
        aliases = sorted(numpy_aliases(updated_node))
        numpy = "np" if "np" in aliases else aliases[0] if aliases else "numpy"
        if not aliases:
            AddImportsVisitor.add_needed_import(self.context, "numpy")
        body.insert(index + 1, cst.parse_statement(
            f'{numpy}.set_printoptions(legacy="{PRINT_LEGACY}")  # scalars print as in NumPy 1\n'))
        self.add(1, Kind.CHANGED, f'added {numpy}.set_printoptions(legacy="{PRINT_LEGACY}") '
                 "after disable_v2_behavior(): NumPy 2 prints a scalar in a list as "
                 "np.float32(1.5), where the TF1 program printed 1.5")
        return updated_node.with_changes(body=body)
