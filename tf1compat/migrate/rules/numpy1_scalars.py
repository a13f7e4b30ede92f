"""A fetched value turned into a Python number -> through `.item()`, as NumPy 1 converted it.

TF1 scripts print and log what `sess.run` returned with `"%f" % loss` and `float(w)`; when
the tensor is `[1]`-shaped (`W = tf.Variable(tf.random_normal([1]))`) the value is a
one-element array, which NumPy 1 converted and NumPy 2.4 refuses (`TypeError: only
0-dimensional arrays can be converted to Python scalars`). `run` converts such arrays itself
(`tf1compat.runner.numpy1.scalars`); a migrated program runs on NumPy 2 as it is, so where a
name is bound only ever to what a session's `run` (or a tensor's `eval`) returned, its
conversions are written as NumPy 2 converts a one-element array:

- `float(x)` / `int(x)` -> `float(x.item())` / `int(x.item())`;
- `"... %f %d" % (step, x)` -> `(step.item(), x.item())` for the numeric conversions
  (`%s` and `%r` print the array, as before).

`.item()` gives the same number for a NumPy scalar (a `[]`-shaped tensor's value) and a
one-element array of any rank, and raises for a larger one, which no NumPy converted.
"""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst
from libcst.metadata import Assignment, ScopeProvider

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

_RUNS = ("run", "eval")  # sess.run(...), tensor.eval(...)
_CONVERSIONS = ("float", "int")
# printf-style conversions: the type letter of each, `%%` included so it can be skipped
_SPECIFIER = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)")
_NUMERIC = set("diouxXeEfFgG")


def _specifiers(text: str) -> Optional[list[str]]:
    """The type letters of a format string's conversions, or None where a `*` width or a
    mapping key makes positions other than one per conversion."""
    letters = [match.group(1) for match in _SPECIFIER.finditer(text)]
    if "*" in text or "%(" in text:
        return None
    return [letter for letter in letters if letter != "%"]


def _fetched_targets(node: cst.Assign) -> list[cst.Name]:
    """The names an assignment from a `.run(...)` / `.eval(...)` call binds."""
    value = node.value
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and
            value.func.attr.value in _RUNS):
        return []
    names: list[cst.Name] = []
    for target in node.targets:
        found = target.target
        elements = found.elements if isinstance(found, (cst.Tuple, cst.List)) else [found]
        for element in elements:
            element = element.value if isinstance(element, cst.Element) else element
            if isinstance(element, cst.Name):
                names.append(element)
    return names


class NumPy1ScalarsRule(Rule):
    NAME = "numpy1-scalars"
    DESCRIPTION = ("float()/int()/%-formatting of a fetched value -> .item() first: NumPy 2.4 "
                   "refuses a one-element array")
    TRIGGERS = (".run(", ".eval(")
    METADATA_DEPENDENCIES = (*Rule.METADATA_DEPENDENCIES, ScopeProvider)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._fetched: set[int] = set()  # the target Name nodes of fetching assignments

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        fetched = self._fetched

        class Fetches(cst.CSTVisitor):  # all of them first: a later binding counts too
            def visit_Assign(self, assign: cst.Assign) -> None:
                fetched.update(id(name) for name in _fetched_targets(assign))

        node.visit(Fetches())

    def _only_fetched(self, node: cst.BaseExpression) -> bool:
        """Whether `node` is a fetched value: a name every binding of which is a fetch, or
        arithmetic on such names and number literals (`w * 10`, an array too)."""
        if isinstance(node, cst.UnaryOperation):
            return self._only_fetched(node.expression)
        if isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.Modulo):
            sides = (node.left, node.right)
            return any(self._only_fetched(side) for side in sides) and all(
                isinstance(side, (cst.Integer, cst.Float)) or self._only_fetched(side)
                for side in sides)
        if not isinstance(node, cst.Name):
            return False
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None:
            return False
        bindings = scope[node.value]
        return bool(bindings) and all(isinstance(binding, Assignment) and
                                      id(binding.node) in self._fetched
                                      for binding in bindings)

    @staticmethod
    def _item(node: cst.BaseExpression) -> cst.Call:
        if not isinstance(node, cst.Name):  # (w * 10).item()
            node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return cst.Call(cst.Attribute(node, cst.Name("item")))

    @staticmethod
    def _code(node: cst.BaseExpression) -> str:
        return cst.Module([]).code_for_node(node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if not (isinstance(func, cst.Name) and func.value in _CONVERSIONS and
                len(original_node.args) == 1 and original_node.args[0].keyword is None and
                not original_node.args[0].star and
                self._only_fetched(original_node.args[0].value)):
            return updated_node
        converted = self._item(updated_node.args[0].value)
        self.add(original_node, Kind.CHANGED,
                 f"{func.value}({self._code(original_node.args[0].value)}) -> "
                 f"{func.value}({self._code(converted)}): a value a session fetched; NumPy "
                 "2.4 refuses to convert a one-element array")
        return updated_node.with_changes(args=[updated_node.args[0].with_changes(
            value=converted)])

    def leave_BinaryOperation(self, original_node: cst.BinaryOperation,
                              updated_node: cst.BinaryOperation) -> cst.BaseExpression:
        if not (isinstance(original_node.operator, cst.Modulo) and
                isinstance(original_node.left, cst.SimpleString)):
            return updated_node
        letters = _specifiers(original_node.left.evaluated_value)
        right = updated_node.right
        values = list(right.elements) if isinstance(right, cst.Tuple) else None
        if letters is None or (values is not None and len(values) != len(letters)):
            return updated_node
        originals = list(original_node.right.elements) if values is not None else \
            [original_node.right]
        changed = []
        for index, (letter, element) in enumerate(zip(letters, originals)):
            value = element.value if isinstance(element, cst.Element) else element
            if letter in _NUMERIC and self._only_fetched(value):
                changed.append(index)
        if not changed:
            return updated_node
        names = ", ".join(self._code(originals[i].value if values is not None else originals[i])
                          for i in changed)
        self.add(original_node, Kind.CHANGED,
                 f"%-formatting of {names} -> .item() first: what a session fetched, given to "
                 "a numeric conversion; NumPy 2.4 refuses to convert a one-element array")
        if values is None:
            return updated_node.with_changes(right=self._item(updated_node.right))
        for index in changed:
            values[index] = values[index].with_changes(value=self._item(values[index].value))
        return updated_node.with_changes(right=right.with_changes(elements=values))
