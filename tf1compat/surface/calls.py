"""Calls of a TF 1.15 function as TF1 code writes them, and whether migrated ones still take them.

Read by name, a migrated `tf.reduce_mean` is TF 2's own function, whose parameters differ
from TF 1.15's; but `migrate` rewrites the calls too (`keep_dims=` becomes `keepdims=`,
arguments TF 2 reordered become keywords). So for a `tf.` function or class whose
signature differs after migrate, the probe writes calls of it with TF 1.15's parameters:
the positional ones up to `name` by position, and each optional one alone by keyword
beside the required ones. It migrates them as one script and holds each migrated call
against the function it now calls, without calling it: the arguments must bind to that
function's signature, every argument the TF1 call passed must still be passed (an argument
migrate rewrote into an expression, `rate=1 - keep_prob`, counts as passed), and one
still passed by position must land on the parameter TF 1.15 gave that position (or on
one renamed in its place, as `tf.gfile.Exists(filename)` became `tf.io.gfile.exists(path)`).
A form TF 1.15 itself refuses (`count_nonzero(axis=...)` alone, with no tensor to count) is
not written: the dump records which (`call_forms`, "refused_forms" in the data).
Defaults are not compared here: a TF1 call that leaves a parameter out gets TF 2's
default, which the name-level check reports.
"""

from __future__ import annotations

import ast
import inspect
import re
from typing import Any, Iterable, Optional

from tf1compat.surface.call_forms import call_text, forms

__all__ = ["bound_call", "call_text", "forms", "passed_in", "problem", "statements"]
_PLACEHOLDER = re.compile(r"^p_(\d+)$")
VARIABLE = "call_{index}_{form}"
_VARIABLE = re.compile(r"^call_(\d+)_(\d+)$")


def statements(index: int, name: str, parameters: list[list],
               refused: Iterable[int] = ()) -> list[str]:
    """`call_<index>_<form> = tf.X(...)` lines, one per form TF 1.15 takes (`refused`: the
    numbers of those it refuses, from the data); `name` must be a `tf.` chain."""
    skipped = set(refused)
    return [f"{VARIABLE.format(index=index, form=number)} = {call_text(name, parameters, form)}"
            for number, form in enumerate(forms(parameters)) if number not in skipped]


def bound_call(statement: ast.stmt) -> Optional[tuple[int, int, ast.Call]]:
    """(name index, form, call) of a migrated `call_<i>_<f> = ...` statement."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and
            isinstance(statement.targets[0], ast.Name)):
        return None
    match = _VARIABLE.match(statement.targets[0].id)
    if match is None:
        return None
    call = statement.value
    return (int(match.group(1)), int(match.group(2)), call) if isinstance(call, ast.Call) \
        else (int(match.group(1)), int(match.group(2)), None)


def _placeholders(node: ast.AST) -> set[int]:
    return {int(match.group(1)) for child in ast.walk(node) if isinstance(child, ast.Name)
            for match in [_PLACEHOLDER.match(child.id)] if match}


def problem(call: Optional[ast.Call], passed: set[int], parameters: list[list],
            namespace: dict[str, Any]) -> Optional[str]:
    """Why the migrated call does not take the TF1 call's arguments, or None."""
    if call is None:
        return "migrate made the call something other than a call"
    text = ast.unparse(call)[:160]
    if any(isinstance(arg, ast.Starred) for arg in call.args) or \
            any(keyword.arg is None for keyword in call.keywords):
        return f"{text}: arguments passed through * or **"
    try:
        target = eval(compile(ast.Expression(call.func), "<probe>", "eval"), namespace)  # noqa: S307
        signature = inspect.signature(target)
    except Exception as error:  # noqa: BLE001 - any failure is the reason
        return f"{text}: {type(error).__name__}: {error}"[:300]
    positional = [object() for _ in call.args]
    keywords = {keyword.arg: object() for keyword in call.keywords}
    try:
        bound = signature.bind(*positional, **keywords)
    except TypeError as error:
        return f"{text}: refused by what it calls: {error}"
    reached = {id(value): parameter for parameter, value in bound.arguments.items()}
    for arg, marker in zip(call.args, positional):
        match = _PLACEHOLDER.match(arg.id) if isinstance(arg, ast.Name) else None
        if match is not None:
            expected = parameters[int(match.group(1))][0]
            landed = reached.get(id(marker))
            tf115_names = {p[0] for p in parameters}
            # renamed in place (`filename` -> `path`) is the same argument
            moved = landed in tf115_names or expected in signature.parameters
            if landed is not None and landed != expected and moved:
                return f"{text}: TF 1.15's `{expected}` by position reaches `{landed}`"
    present = set().union(*(_placeholders(node) for node in [*call.args, *call.keywords]))
    dropped = sorted(passed - present)
    if dropped:
        return f"{text}: `{parameters[dropped[0]][0]}` is no longer passed"
    return None


def passed_in(form: tuple[list[int], list[int]]) -> set[int]:
    return set(form[0]) | set(form[1])
