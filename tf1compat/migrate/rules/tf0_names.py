"""TF 0.x names and argument orders -> TF 1.x, from TensorFlow's 0.x -> 1.0 table.

Runs before tf_upgrade_v2 (which knows only 1.x names), on the script as
written, keeping every line in place:

- a 0.x name becomes its 1.x name, spelled as the script spelled it
  (`tf.pack` -> `tf.stack`, `tf.train.SummaryWriter` -> `tf.summary.FileWriter`),
  for tf_upgrade_v2 and the later rules to carry on from;
- keywords renamed in 1.0 (`concat_dim=`, `split_dim=`, `adj_x=`, ...);
- positional arguments whose order changed, where the code shows which order
  it is: `tf.concat(0, [a, b])` (an int literal first, or a list second) ->
  `tf.concat([a, b], 0)`; `tf.split(1, 2, x)` -> `tf.split(x, 2, 1)`;
  `batch_matmul(x, y, False, True)` -> `matmul(x, y, adjoint_a=False,
  adjoint_b=True)`; positional `logits, labels` of the cross-entropy functions
  (keyword-only in TF 1.x) -> keywords; `tf.reverse(x, [False, True])` ->
  `tf.reverse(x, [1])`; `initializer=tf.zeros_initializer` (0.x's function) ->
  `tf.zeros_initializer()`.

A call the code does not decide (`tf.concat(x, y)` of two names whose values
are not shown) is left as is and reported, naming the call; `tf1compat run`
reads such a call's order from the values at run time.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
import libcst.matchers as m
from libcst.helpers import get_full_name_for_node

from tf1compat import tf0_names
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, keyword_arg

# TF 1.x positional parameters, in order (the rest are written as keywords).
_NEW_POSITIONS = {
    "concat": ("values", "axis"),
    "split": ("value", "num_or_size_splits", "axis"),
    "batch_matmul": ("a", "b"),
    "batch_svd": ("tensor",),
    "sparse_split": (),
    "nn.softmax_cross_entropy_with_logits": (),
    "nn.sparse_softmax_cross_entropy_with_logits": (),
    "nn.sigmoid_cross_entropy_with_logits": (),
}
_ORDERS = {"concat": ("(concat_dim, values)", "(values, axis)"),
           "split": ("(split_dim, num_split, value)", "(value, num_or_size_splits, axis)"),
           "svd": ("(tensor, compute_uv, full_matrices)", "(tensor, full_matrices, compute_uv)")}
_LIST_CALLS = ("split", "unstack", "unpack")
_TRIGGERS = tuple({name.split(".")[-1] for name in (
    *tf0_names.RENAMES, *tf0_names.KEYWORD_RENAMES, *tf0_names.OLD_POSITIONS,
    *tf0_names.BECAME_CLASSES, *tf0_names.BOOL_DIMS_TO_AXES)})


def _int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer)


def _bool_literal(node: cst.BaseExpression) -> Optional[bool]:
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    return None


def _arg(value: cst.BaseExpression, keyword: Optional[str]) -> cst.Arg:
    if keyword is None:
        return cst.Arg(value=value)
    return keyword_arg(keyword, value)


def _with_commas(args: list[cst.Arg]) -> list[cst.Arg]:
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return [a.with_changes(comma=comma if i < len(args) - 1 else cst.MaybeSentinel.DEFAULT)
            for i, a in enumerate(args)]


class Tf0NamesRule(Rule):
    NAME = "tf0-names"
    DESCRIPTION = "TF 0.x names, keywords and argument orders -> TF 1.x (TensorFlow's 1.0 table)"
    TRIGGERS = _TRIGGERS

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.source = node
        self.reported: set[str] = set()
        self.called: set[int] = set()  # ids of func nodes of calls (not bare references)
        self.passed: set[int] = set()  # ids of values passed as `*initializer=`

    def _say(self, key: str, node: cst.CSTNode, kind: Kind, message: str) -> None:
        if key not in self.reported:
            self.reported.add(key)
            self.add(node, kind, message)

    def _code(self, node: cst.CSTNode) -> str:
        return self.source.code_for_node(node)

    def _name(self, node: cst.CSTNode) -> Optional[str]:
        return self.names.v1_name(node) if isinstance(node, (cst.Name, cst.Attribute)) else None

    # -- names ------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(id(node.func))
        # `initializer=tf.zeros_initializer` (any `*initializer=`): 0.x's function passed
        # uncalled; a bare `tf.zeros_initializer` elsewhere is the TF 1.x class
        self.passed.update(id(arg.value) for arg in node.args
                           if arg.keyword is not None and arg.keyword.value.endswith("initializer"))

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        name = self._name(original_node)
        if name is None:
            return updated_node
        full = get_full_name_for_node(original_node) or ""
        prefix = full[:len(full) - len(name)]  # 'tf.' or 'tf.compat.v1.'
        new = tf0_names.renamed(name)
        if new is not None:
            self._say(f"rename:{name}", original_node, Kind.CHANGED,
                      f"tf.{name} (TF 0.x) -> tf.{new}, its TF 1.0 name")
            return cst.parse_expression(prefix + new)
        if name in tf0_names.BECAME_CLASSES and id(original_node) in self.passed:
            self._say(f"class:{name}", original_node, Kind.CHANGED,
                      f"tf.{name} (TF 0.x's function, passed uncalled) -> tf.{name}(): an "
                      "initializer object since TF 1.0")
            return cst.Call(func=updated_node)
        return updated_node

    # -- calls --------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        name = self._name(original_node.func)
        if name is None or any(arg.star for arg in original_node.args):
            return updated_node
        args = list(updated_node.args)
        renames = tf0_names.KEYWORD_RENAMES.get(name, {})
        if renames and any(a.keyword is not None and a.keyword.value in renames for a in args):
            args = [a.with_changes(keyword=cst.Name(renames[a.keyword.value]))
                    if a.keyword is not None and a.keyword.value in renames else a for a in args]
            self._say(f"keywords:{name}:{self.line(original_node)}", original_node, Kind.CHANGED,
                      f"tf.{name}(...) keywords renamed in TF 1.0: " + ", ".join(
                          f"{old}= -> {new}=" for old, new in renames.items()))
        positional = [a for a in args if a.keyword is None]
        keywords = {a.keyword.value for a in args if a.keyword is not None}
        old = self._is_old_order(name, original_node, positional, keywords)
        if old:
            args = self._reordered(name, args)
            self._say(f"order:{name}:{self.line(original_node)}", original_node, Kind.CHANGED,
                      f"tf.{name}(...) with TF 0.x's positional arguments "
                      f"{tf0_names.OLD_POSITIONS[name]} -> TF 1.x's")
        elif name in tf0_names.BOOL_DIMS_TO_AXES and len(positional) >= 2:
            args = self._reverse_axes(original_node, args, positional[1])
        return updated_node.with_changes(args=args)

    def _undecided(self, name: str, call: cst.Call) -> None:
        old, new = _ORDERS[name]
        self._say(f"undecided:{self.line(call)}", call, Kind.NOT_CONVERTED,
                  f"{self._code(call)}: the code does not show whether these are TF 0.x's "
                  f"arguments {old} or TF 1.x's {new}; left as is (read as TF 1.x's). Write "
                  "them as keywords; `tf1compat run` tells them apart from the values")

    def _kind(self, node: cst.BaseExpression, seen: frozenset = frozenset()) -> Optional[str]:
        """'axis' (an int), 'values' (a list), or None, from the code alone.

        A name is what every assignment to it in the file gives, when they agree.
        """
        if _int_literal(node):
            return "axis"
        if isinstance(node, (cst.List, cst.Tuple, cst.ListComp)):
            return "values"
        if isinstance(node, cst.Call):
            called = self._name(node.func)
            if called and called.split(".")[-1] in _LIST_CALLS:
                return "values"
        if isinstance(node, cst.Name) and node.value not in seen:
            seen = seen | {node.value}
            kinds = {self._kind(assign.value, seen)
                     for assign in m.findall(self.source, m.Assign())
                     if any(isinstance(t.target, cst.Name) and t.target.value == node.value
                            for t in assign.targets)}
            if len(kinds) == 1:
                return kinds.pop()
        return None

    def _is_old_order(self, name: str, call: cst.Call, positional: list, keywords: set) -> bool:
        if name in ("batch_matmul", "batch_svd", *tf0_names.KEYWORD_ONLY):
            return bool(positional)
        if name == "concat":
            if len(positional) == 1 and "values" in keywords:
                return True
            if len(positional) < 2:
                return False
            first, second = (self._kind(a.value) for a in positional[:2])
            if first == "axis" or second == "values":
                return True
            if first == "values" or second == "axis":
                return False
            self._undecided(name, call)
            return False
        if name == "split":
            if not positional:
                return False
            first = self._kind(positional[0].value)
            if first == "axis" or "value" in keywords:
                return True
            third = self._kind(positional[2].value) if len(positional) > 2 else None
            if first == "values" or third == "axis" or len(positional) == 2:
                return False
            self._undecided(name, call)
            return False
        if name == "svd" and len(positional) >= 2:
            flags = [_bool_literal(a.value) for a in positional[1:3]]
            if len(flags) < 2 or None in flags or flags[0] != flags[1]:
                self._undecided(name, call)
        return False

    def _reordered(self, name: str, args: list[cst.Arg]) -> list[cst.Arg]:
        names = tf0_names.OLD_POSITIONS[name]
        bound: dict[str, cst.BaseExpression] = {}
        positional = [a for a in args if a.keyword is None]
        for key, arg in zip(names, positional):
            bound[key] = arg.value
        for arg in args:
            if arg.keyword is not None:
                bound[arg.keyword.value] = arg.value
        out = []
        order = list(_NEW_POSITIONS.get(name, ()))
        while order and order[0] in bound:
            out.append(_arg(bound.pop(order.pop(0)), None))
        out += [_arg(value, key) for key, value in bound.items()]
        return _with_commas(out)

    def _reverse_axes(self, call: cst.Call, args: list[cst.Arg], dims: cst.Arg) -> list[cst.Arg]:
        value = dims.value
        if isinstance(value, (cst.List, cst.Tuple)) and value.elements:
            flags = [_bool_literal(e.value) for e in value.elements]
            if None not in flags:
                axes = cst.parse_expression("[" + ", ".join(
                    str(i) for i, flag in enumerate(flags) if flag) + "]")
                self._say(f"reverse:{self.line(call)}", call, Kind.CHANGED,
                          f"tf.reverse(x, {self._code(value)}) (TF 0.x: one bool per dimension) "
                          f"-> tf.reverse(x, {self._code(axes)}) (TF 1.x: the axes)")
                return [dims.with_changes(value=axes) if a is dims else a for a in args]
            if all(_int_literal(e.value) for e in value.elements):
                return args
        if self._kind(value) != "axis":
            self._say(f"reverse?:{self.line(call)}", call, Kind.NOTE,
                      f"{self._code(call)}: TF 0.x's tf.reverse took one bool per dimension, TF "
                      "1.x's takes the axes; the code does not show which this is (left as is; "
                      "`tf1compat run` reads a bool argument as 0.x's)")
        return args
