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
Defaults are not compared here: a TF1 call that leaves a parameter out gets TF 2's
default, which the name-level check reports.
"""

from __future__ import annotations

import ast
import inspect
import re
from typing import Any, Optional

from tf1compat.surface.reading import (KEYWORD_ONLY, POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)

_POSITIONAL = (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)
_PLACEHOLDER = re.compile(r"^p_(\d+)$")
VARIABLE = "call_{index}_{form}"
_VARIABLE = re.compile(r"^call_(\d+)_(\d+)$")


def forms(parameters: list[list]) -> list[tuple[list[int], list[int]]]:
    """(positional indices, keyword indices) of each call written for TF 1.15's parameters."""
    positional = [i for i, p in enumerate(parameters) if p[1] in _POSITIONAL]
    required = [i for i in positional if len(parameters[i]) < 3]
    required_keywords = [i for i, p in enumerate(parameters)
                         if p[1] == KEYWORD_ONLY and len(p) < 3]
    names = [p[0] for p in parameters]
    upto = positional[:names.index("name") + 1] if "name" in names and \
        names.index("name") in positional else positional
    # `_sentinel` (the cross-entropies) makes TF 1.15 refuse positional arguments from there
    sentinel = next((i for i in upto if names[i].startswith("_")), None)
    if sentinel is not None:
        upto = [i for i in upto if i < sentinel]
    found = []
    if len(upto) > len(required):
        found.append((upto, required_keywords))
    for i, p in enumerate(parameters):
        if len(p) >= 3 and p[1] in (*_POSITIONAL, KEYWORD_ONLY) and not p[0].startswith("_"):
            found.append((required, sorted({*required_keywords, i})))
    return found or [(required, required_keywords)]


def call_text(name: str, parameters: list[list], form: tuple[list[int], list[int]]) -> str:
    positional, keywords = form
    args = [f"p_{i}" for i in positional] + [f"{parameters[i][0]}=p_{i}" for i in keywords]
    return f"{name}({', '.join(args)})"


def statements(index: int, name: str, parameters: list[list]) -> list[str]:
    """`call_<index>_<form> = tf.X(...)` lines, one per form; `name` must be a `tf.` chain."""
    return [f"{VARIABLE.format(index=index, form=number)} = {call_text(name, parameters, form)}"
            for number, form in enumerate(forms(parameters))]


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
