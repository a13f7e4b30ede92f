"""NumPy 1 names NumPy 2 removed -> their NumPy 2 spelling; ragged array literals -> dtype=object.

The names are `run`'s table (`tf1compat.runner.numpy1.aliases`): `np.float` -> `float`,
`np.NaN` -> `np.nan`, `np.product` -> `np.prod`, `np.asscalar(x)` -> `x.item()`, under
whatever name the file imports numpy as. Where NumPy 2 has no spelling that means the same
(`np.in1d` is always 1-D, `np.isin` keeps the shape; `np.asfarray`, `np.cast`), the use is
reported with what to write. `np.array` / `np.asarray` of a nested list or tuple literal
whose lengths differ at some depth (provably ragged: every sibling there is a literal) gets
`dtype=object`: NumPy 1.18 made that object array, NumPy 2 raises ValueError. `np.array(x,
copy=False)` becomes `copy=None` (copy only where needed, NumPy 1's meaning), and
`np.reshape(a, newshape=s)` loses the keyword NumPy 2.4 removed.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
import numpy
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, keyword_arg
from tf1compat.runner.numpy1.aliases import ALIASES
from tf1compat.runner.numpy1.view import lib_name_moved

_ARRAY_MAKERS = ("array", "asarray")
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Tuple)


def numpy_aliases(module: cst.Module) -> set[str]:
    """The names `import numpy [as X]` binds anywhere in the file."""
    found: set[str] = set()

    class Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                if get_full_name_for_node(alias.name) == "numpy":
                    found.add(alias.asname.name.value if alias.asname else "numpy")

    module.visit(Imports())
    return found


def _is_sequence(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.List, cst.Tuple)) and \
        not any(isinstance(e, cst.StarredElement) for e in node.elements)


def _is_scalar_literal(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.UnaryOperation):
        node = node.expression
    return isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString))


def is_ragged(node: cst.CSTNode) -> bool:
    """Whether a list/tuple literal is provably ragged: at some depth, sibling literals differ
    in length, or a sequence literal stands beside a number or string literal."""
    level = [node] if _is_sequence(node) else []
    while level:
        sequences = [item for item in level if _is_sequence(item)]
        if not sequences:
            return False  # numbers all the way down: rectangular
        if len(sequences) < len(level):  # a name or call there may be an array: not known
            return all(_is_sequence(item) or _is_scalar_literal(item) for item in level)
        if len({len(item.elements) for item in level}) > 1:
            return True
        level = [element.value for item in level for element in item.elements]
    return False


class NumPy1Rule(Rule):
    NAME = "numpy1"
    DESCRIPTION = "NumPy 1 names NumPy 2 removed -> NumPy 2's; ragged array literals -> dtype=object"
    TRIGGERS = ("numpy",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.numpy = numpy_aliases(node)
        self.called: set[cst.CSTNode] = set()  # np.asscalar nodes that are called

    def _removed(self, node: cst.CSTNode) -> Optional[tuple[str, str]]:
        """(alias, name) for `<numpy alias>.<removed name>`."""
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and \
                node.value.value in self.numpy and node.attr.value in ALIASES:
            return node.value.value, node.attr.value
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if self._removed(node.func):
            self.called.add(node.func)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        if get_full_name_for_node(original_node.module) == "numpy" and \
                not isinstance(original_node.names, cst.ImportStar):
            for alias in original_node.names:
                name = get_full_name_for_node(alias.name)
                if name in ALIASES:
                    self.add(original_node, Kind.NOT_CONVERTED,
                             f"from numpy import {name}: NumPy 2 has no {name}; "
                             f"{self._instead(name, 'numpy')}")
        return updated_node

    def _instead(self, name: str, alias: str) -> str:
        entry = ALIASES[name]
        if entry.replacement is None:
            return entry.why
        return "use " + entry.replacement.format(np=alias, arg="x")

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        moved = self._lib_name(original_node)
        if moved is not None:
            alias, name = moved
            self.add(original_node, Kind.CHANGED, f"{alias}.lib.{name} -> {alias}.{name} "
                     f"(NumPy 2's numpy.lib no longer re-exports {name})")
            return cst.parse_expression(f"{alias}.{name}")
        found = self._removed(original_node)
        if found is None:
            return updated_node
        alias, name = found
        replacement = ALIASES[name].replacement
        old = f"{alias}.{name}"
        if replacement is None or ("{arg}" in replacement and original_node not in self.called):
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"{old} is not in NumPy 2 and has no spelling there that means the same: "
                     f"{self._instead(name, alias)}")
            return updated_node
        if "{arg}" in replacement:
            return updated_node  # the call is rewritten in leave_Call
        new = replacement.format(np=alias)
        self.add(original_node, Kind.CHANGED, f"{old} -> {new} (NumPy 2 removed {old})")
        return cst.parse_expression(new)

    def _lib_name(self, node: cst.Attribute) -> Optional[tuple[str, str]]:
        """(alias, name) for `np.lib.<name>` that NumPy 2 has only as `np.<name>`."""
        value = node.value
        if isinstance(value, cst.Attribute) and value.attr.value == "lib" and \
                isinstance(value.value, cst.Name) and value.value.value in self.numpy and \
                lib_name_moved(numpy, node.attr.value):
            return value.value.value, node.attr.value
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = self._removed(original_node.func)
        if found is not None and "{arg}" in (ALIASES[found[1]].replacement or ""):
            return self._call_rewrite(original_node, updated_node, *found)
        func = original_node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                func.value.value in self.numpy:
            if func.attr.value in _ARRAY_MAKERS:
                if func.attr.value == "array":
                    updated_node = self._copy_false(original_node, updated_node)
                return self._ragged(original_node, updated_node)
            if func.attr.value == "reshape":
                return self._newshape(original_node, updated_node)
        return updated_node

    def _newshape(self, original_node: cst.Call, updated_node: cst.Call):
        """`np.reshape(a, newshape=s)` -> `np.reshape(a, s)`; elsewhere `newshape=` -> `shape=`
        (NumPy 2.4 has no `newshape`)."""
        args = list(updated_node.args)
        index = next((i for i, arg in enumerate(args) if arg.keyword is not None and
                      arg.keyword.value == "newshape"), None)
        if index is None:
            return updated_node
        if index == 1 and args[0].keyword is None and not args[0].star:
            args[1] = args[1].with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
            written = "reshape(a, s)"
        else:
            args[index] = args[index].with_changes(keyword=cst.Name("shape"))
            written = "reshape(..., shape=s)"
        self.add(original_node, Kind.CHANGED, f"reshape(..., newshape=s) -> {written} (NumPy 2 "
                                              "removed the newshape keyword)")
        return updated_node.with_changes(args=args)

    def _call_rewrite(self, original_node, updated_node, alias, name):
        args = updated_node.args
        if len(args) != 1 or args[0].keyword is not None or args[0].star:
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"{alias}.{name}(...) with these arguments: {self._instead(name, alias)}")
            return updated_node
        arg = args[0].value
        if not isinstance(arg, _ATOMS):
            arg = arg.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        template = ALIASES[name].replacement.format(np=alias, arg="__ARG__")
        new = cst.parse_expression(template)
        new = new.visit(_Substitute(arg))
        self.add(original_node, Kind.CHANGED,
                 f"{alias}.{name}(x) -> {template.replace('__ARG__', 'x')} (NumPy 2 removed "
                 f"{alias}.{name})")
        return new

    def _copy_false(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        """`np.array(x, copy=False)` -> `copy=None`: NumPy 1's "copy only if needed" (NumPy 2's
        copy=False raises where a copy is needed)."""
        args = list(updated_node.args)
        for index, arg in enumerate(args):
            if arg.keyword is not None and arg.keyword.value == "copy" and \
                    isinstance(arg.value, cst.Name) and arg.value.value == "False":
                args[index] = arg.with_changes(value=cst.Name("None"))
                self.add(original_node, Kind.CHANGED,
                         "np.array(..., copy=False) -> copy=None (NumPy 1's copy=False copied "
                         "where needed; NumPy 2's raises there)")
                return updated_node.with_changes(args=args)
        return updated_node

    def _ragged(self, original_node: cst.Call, updated_node: cst.Call):
        args = original_node.args
        if not args or args[0].keyword is not None or not is_ragged(args[0].value) or \
                len([a for a in args if a.keyword is None]) > 1 or \
                any(a.keyword is not None and a.keyword.value == "dtype" for a in args):
            return updated_node
        dtype = keyword_arg("dtype", cst.Name("object"))
        new_args = list(updated_node.args)
        new_args[-1] = new_args[-1].with_changes(comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" ")))
        self.add(original_node, Kind.CHANGED,
                 f"{get_full_name_for_node(original_node.func)}(...) of a ragged nested "
                 "literal -> dtype=object added (NumPy 1.18 made this object array; NumPy 2 "
                 "raises ValueError without dtype=object)")
        return updated_node.with_changes(args=[*new_args, dtype])


class _Substitute(cst.CSTTransformer):
    """Puts the call's argument where the template says __ARG__."""

    def __init__(self, arg: cst.BaseExpression):
        self.arg = arg

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name):
        return self.arg if original_node.value == "__ARG__" else updated_node
