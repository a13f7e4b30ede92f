"""Calls of a TF 1.15 function as TF1 code writes them, and whether migrated ones still take them.

Read by name, a migrated `tf.reduce_mean` is TF 2's own function, whose parameters differ
from TF 1.15's; but `migrate` rewrites the calls too (`keep_dims=` becomes `keepdims=`,
arguments TF 2 reordered become keywords). So for a function or class (a `tf.` name or
one imported from a module) whose signature differs after migrate, the probe writes calls
of it with TF 1.15's parameters:
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

from tf1compat.surface import spelling
from tf1compat.surface.call_forms import call_text, forms

__all__ = ["bound_call", "call_text", "callable_name", "forms", "passed_in", "problem",
           "statements", "written"]
_PLACEHOLDER = re.compile(r"^p_(\d+)$")
VARIABLE = "call_{index}_{form}"
_VARIABLE = re.compile(r"^call_(\d+)_(\d+)$")


def statements(index: int, name: str, parameters: list[list],
               refused: Iterable[int] = ()) -> list[str]:
    """`call_<index>_<form> = tf.X(...)` lines, one per form TF 1.15 takes (`refused`: the
    numbers of those it refuses, from the data); `name` is a `tf.` chain, or an imported one
    (`tensorflow.python.ops.nn_ops:top_k`), which gets its import line first, as a script
    writes it (`from tensorflow.python.ops.nn_ops import top_k as callee_3`)."""
    setup, callee = _callee(index, name)
    every = forms(parameters)
    return setup + [f"{VARIABLE.format(index=index, form=number)} = "
                    f"{call_text(callee, parameters, every[number])}"
                    for number in written(name, parameters, refused)]


def written(name: str, parameters: list[list], refused: Iterable[int] = ()) -> list[int]:
    """The numbers of the forms written for `name`: not those the data says TF 1.15 refuses,
    nor those TF 1.15's own signature refuses: a value for a `KeywordRequired` parameter
    (`sparse_split`'s first, which makes TF 1.15 refuse any argument by position), or one
    argument twice, under a parameter and its deprecated alias (`sparse_concat(axis, ...,
    concat_dim=...)`; the alias is the keyword tf_upgrade_v2 renames to the parameter)."""
    skipped = set(refused)
    guards = {index for index, p in enumerate(parameters)
              if len(p) >= 3 and p[2] == {"object": "KeywordRequired"}}
    aliases = _deprecated_aliases(name, parameters)
    found = []
    for number, (positional, keywords) in enumerate(forms(parameters)):
        passed = {parameters[i][0] for i in [*positional, *keywords]}
        if number in skipped or guards & {*positional, *keywords} or \
                any(alias in passed and target in passed for alias, target in aliases.items()):
            continue
        found.append(number)
    return found


def _deprecated_aliases(name: str, parameters: list[list]) -> dict[str, str]:
    if not name.startswith("tf."):
        return {}
    from tf1compat.migrate.upgrade_v2 import keyword_renames

    names = {p[0] for p in parameters}
    return {alias: target for alias, target in keyword_renames(name).items()
            if alias in names and target in names}


def callable_name(name: str) -> bool:
    """Whether the probe can write calls of `name`: a `tf.` chain or a name imported from a
    module, not a module itself."""
    module, chain = spelling.parse(name)
    return bool(chain) and (module is None or module.startswith("tensorflow."))


def _callee(index: int, name: str) -> tuple[list[str], str]:
    module, chain = spelling.parse(name)
    if module is None:
        return [], name
    bound = f"callee_{index}"
    return [f"from {module} import {chain[0]} as {bound}"], ".".join([bound, *chain[1:]])


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
    while isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Call) and \
            not call.args and not call.keywords:
        call = call.func.value  # the call, its result converted as TF1's was (`.to_sparse()`)
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
