"""Positional arguments of calls whose parameter order TF 2.21 changed -> keywords.

TF 2.21 put new parameters before `name` in `tf.matmul` (output_type, grad_a, grad_b),
`tf.nn.top_k` (index_type) and `tf.scatter_nd` (bad_indices_policy): after the renames, a
TF1 call passing `name` by position would give it to the new parameter. Each positional
argument from the first position whose parameter differs becomes a keyword with TF 1.15's
name for it. The parameter lists are those `tf1compat run` serves
(`tf1compat.runner.tf115_calls`), held against TF 2.21's own functions, so `run` and a
migrated script read a call the same way.
"""

from __future__ import annotations

import functools
import inspect
from typing import Optional

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _positional_names(function) -> list[str]:
    return [parameter.name for parameter in inspect.signature(function).parameters.values()
            if parameter.kind in _POSITIONAL]


@functools.lru_cache(maxsize=None)
def moved_parameters() -> dict[str, tuple[int, tuple[str, ...]]]:
    """`tf.<path>` -> (the first position TF 2.21 gives another parameter, TF 1.15's names)."""
    import tensorflow as tf

    from tf1compat.runner import tf115_calls

    moved = {}
    for path, served in tf115_calls.SERVED.items():
        target = tf.compat.v1
        for part in path.split("."):
            target = getattr(target, part)
        tf115, tf221 = _positional_names(served), _positional_names(target)
        first = next((index for index, name in enumerate(tf115)
                      if index >= len(tf221) or tf221[index] != name), None)
        if first is not None:
            moved[path] = (first, tuple(tf115))
    return moved


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))


class Tf115PositionsRule(Rule):
    NAME = "tf115-positions"
    DESCRIPTION = ("positional arguments TF 2.21 would give to another parameter -> TF 1.15's "
                   "keywords")
    TRIGGERS = ("matmul", "top_k", "scatter_nd")

    def _moved(self, func: cst.BaseExpression) -> Optional[tuple[str, int, tuple[str, ...]]]:
        if not isinstance(func, (cst.Name, cst.Attribute)):
            return None
        path = self.names.v1_name(func)
        found = moved_parameters().get(path) if path else None
        return (path, *found) if found else None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        moved = self._moved(original_node.func)
        if moved is None or any(arg.star for arg in updated_node.args):
            return updated_node
        path, first, names = moved
        args = list(updated_node.args)
        positional = [index for index, arg in enumerate(args) if arg.keyword is None]
        late = [index for index in positional if positional.index(index) >= first]
        if not late:
            return updated_node
        if len(positional) > len(names):
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"tf.{path}(...) has {len(positional)} positional arguments; TF 1.15 took "
                     f"{len(names)}: left as is")
            return updated_node
        for index in late:
            args[index] = _keyword(args[index], names[positional.index(index)])
        written = ", ".join(f"{names[positional.index(index)]}=" for index in late)
        self.add(original_node, Kind.CHANGED,
                 f"tf.{path}(...): positional {written} -> keywords (TF 2.21 has other "
                 f"parameters at those positions)")
        return updated_node.with_changes(args=args)
