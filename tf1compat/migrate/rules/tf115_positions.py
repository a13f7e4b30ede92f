"""Positional arguments that TF 2.21 would read as other parameters -> TF 1.15's keywords.

TF 2 moved parameters of many TF1 functions: `tf.matmul` has output_type, grad_a and
grad_b before `name`, `tf.nn.dropout` has `rate` where `keep_prob` was, `tf.transpose`
has `conjugate` before `name`. tf_upgrade_v2 converts the calls it has tables for, and
not always every argument: `tf.nn.dropout(x, keep_prob, noise_shape)` comes out as
`tf.nn.dropout(x, noise_shape, rate=1 - keep_prob)`, giving noise_shape to `rate`. So
before it runs, each positional argument from the first position whose parameter differs
becomes a keyword with TF 1.15's name for it, where TF 1.15's parameters (the committed
data of the surface probe, `tf1compat/surface/data/tf115.json`, read from TF 1.15 itself)
differ from those of the function TF 2.21 has under that name (its `tf.X` or
`tf.compat.v1.X`); tf_upgrade_v2 then renames those keywords as TF 2 needs.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Any, Optional

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import TIGHT_EQUAL, Rule
from tf1compat.surface import reference

_POSITIONAL_KINDS = ("positional", "either")  # the data's words for them
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
ANY_KEYWORD = "**"  # among the names a function takes: it has **kwargs


@functools.lru_cache(maxsize=1)
def _tf115() -> dict[str, Any]:
    return reference.load().names


def walk_path(path: str, root: Any) -> Any:
    """`root.<path>`, or None where TF 2.21 has none."""
    value = root
    try:
        for part in path.split("."):
            value = getattr(value, part)
    except (AttributeError, ImportError):
        return None
    return value


def _parameters_of(value: Any) -> Optional[tuple[list[str], set[str]]]:
    """(positional names, all names) of a TF 2.21 callable, or None where it has no signature."""
    try:
        parameters = list(inspect.signature(value).parameters.values())
    except (TypeError, ValueError):
        return None
    names = {p.name for p in parameters if p.kind != inspect.Parameter.VAR_KEYWORD}
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters):
        names.add(ANY_KEYWORD)  # takes TF 1.15's names through **kwargs (Keras's `implementation`)
    return [p.name for p in parameters if p.kind in _POSITIONAL], names


def _tf2_parameters(path: str, root: Any) -> Optional[tuple[list[str], set[str]]]:
    """(positional names, all names) of `path` under `root` in TF 2.21, or None."""
    value = walk_path(path, root)
    return None if value is None else _parameters_of(value)


def _first_moved(tf115: list[str], tf2: list[str], tf2_names: set[str]) -> Optional[int]:
    """The first position where TF 2 has another of the parameters (a renamed one in place,
    `device_name_or_function` -> `device_name`, is the same argument)."""
    for index, name in enumerate(tf115):
        here = tf2[index] if index < len(tf2) else None
        if here is None:  # TF 2 takes fewer by position (LSTMCell's `implementation`)
            return index
        if here != name and (name in tf2_names or here in tf115):
            return index
    return None


def _renamed_in_place(tf115: list[str], tf2: list[str], tf2_names: set[str]) -> dict[str, str]:
    """TF 1.15's name -> TF 2.21's for a parameter TF 2.21 renamed where it stands
    (`node_name_regex_whitelist` -> `node_name_regex_allowlist`)."""
    return {name: tf2[index] for index, name in enumerate(tf115)
            if name not in tf2_names and index < len(tf2) and tf2[index] not in tf115}


@dataclasses.dataclass(frozen=True)
class CallPlan:
    """How a TF1 call of a function TF 2.21 changed is written for TF 2.21's: positional
    arguments from `first` (None: none) become keywords with TF 1.15's `names`, which the
    functions called take when `accepted` has them; `renamed` keywords get TF 2.21's names."""

    first: Optional[int]
    names: tuple[str, ...]
    accepted: frozenset[str]
    renamed: dict[str, str]


def call_plan(parameters: list[list], targets: list[Any], rename: bool) -> Optional[CallPlan]:
    """The plan for calls written against TF 1.15's `parameters` that now reach `targets` (TF
    2.21 callables; the first positions any of them moves decide), or None where nothing
    changes; `rename`: keywords TF 2.21 renamed in place are renamed here (after tf_upgrade_v2,
    which renames the public names' own)."""
    tf115 = [p[0] for p in parameters if p[1] in _POSITIONAL_KINDS]
    first, accepted, renamed = None, set(), {}
    for value in targets:
        found = _parameters_of(value)
        if found is None:
            continue
        accepted |= found[1]
        moved = _first_moved(tf115, *found)
        if moved is not None:
            first = moved if first is None else min(first, moved)
        if rename:
            renamed.update(_renamed_in_place(tf115, *found))
    if first is None and not renamed:
        return None
    return CallPlan(first, tuple(tf115), frozenset(accepted), renamed)


def tf115_entry(path: str) -> Optional[dict[str, Any]]:
    """TF 1.15's entry for `tf.<path>` when it is a function or class with parameters."""
    entry = _tf115().get(f"tf.{path}")
    if not entry or entry.get("kind") not in ("function", "class") or \
            not entry.get("parameters"):
        return None
    return entry


def tf115_parameters(key: str, public: Optional[str] = None) -> Optional[list[list]]:
    """TF 1.15's parameters of a name of the data (`tensorflow.python.ops.array_ops:shape`),
    else of its public TF1 name `tf.<public>` (the same function in TF 1.15), or None."""
    for name in (key, f"tf.{public}" if public else None):
        entry = _tf115().get(name) if name else None
        if entry and entry.get("kind") in ("function", "class") and entry.get("parameters"):
            return entry["parameters"]
    return None


@functools.lru_cache(maxsize=None)
def moved_from(path: str) -> Optional[CallPlan]:
    """The plan for calls of `tf.<path>`: the first position TF 2.21 gives another parameter
    in any function migrate may make of the name, TF 1.15's positional names, the names those
    functions take; None where the positions agree or TF 1.15's are not known."""
    entry = tf115_entry(path)
    if entry is None:
        return None
    from tf1compat.migrate.upgrade_v2 import renamed_to
    from tf1compat.shared import deferred_keras

    with deferred_keras.while_tensorflow_loads():  # Keras loads only for a tf.keras name
        import tensorflow as tf

    # TF 2's function of the same name, TF1's in compat.v1, and the one tf_upgrade_v2 moves
    # the name to (`tf.image.resize_images` -> `tf.image.resize`)
    candidates = [(path, tf), (path, tf.compat.v1)]
    target = renamed_to(f"tf.{path}")
    if target and target.startswith("tf.") and not target.startswith("tf.compat.v1."):
        candidates.append((target[len("tf."):], tf))
    home = _contrib_home(path)
    if home is not None:
        candidates.append((home, tf))
    if path.startswith("estimator."):  # the estimator rule moves tf.estimator to tf1compat's
        import tf1compat.estimator

        candidates.append((path[len("estimator."):], tf1compat.estimator))
    if path.startswith("keras."):  # the tf_keras rule moves tf.keras to legacy Keras's TF1 API
        legacy = _legacy_keras_v1()
        if legacy is not None:
            candidates.append((path[len("keras."):], legacy))
    targets = [value for value in (walk_path(where, root) for where, root in candidates)
               if value is not None]
    plan = call_plan(entry["parameters"], targets, rename=False)
    return plan if plan is not None and plan.first is not None else None


def _contrib_home(path: str) -> Optional[str]:
    """`train.load_variable` for `contrib.framework.load_variable`: the TF 2.21 function the
    contrib rule, after this one, maps a contrib name to (None where it maps to none)."""
    if not path.startswith("contrib."):
        return None
    from tf1compat.contrib import registry

    entry = registry.lookup(path[len("contrib."):])
    if entry is None or entry.served is not registry.Served.MAPPED or \
            not entry.target.startswith("tf."):
        return None
    return entry.target[len("tf."):]


@functools.lru_cache(maxsize=None)
def renamed_keywords(path: str) -> dict[str, str]:
    """TF 1.15's keyword -> TF 2.21's, for the parameters of `tf.<path>` renamed in place in
    the function migrate calls instead (`contrib.framework.load_variable(checkpoint_dir=)` is
    `tf.train.load_variable(ckpt_dir_or_file=)`)."""
    entry = tf115_entry(path)
    home = _contrib_home(path)
    if entry is None or home is None:
        return {}
    import tensorflow as tf

    found = _tf2_parameters(home, tf)
    if found is None:
        return {}
    tf115 = [p[0] for p in entry["parameters"] if p[1] in _POSITIONAL_KINDS]
    return _renamed_in_place(tf115, *found)


@functools.lru_cache(maxsize=1)
def _legacy_keras_v1() -> Any:
    """tf_keras's TF1 API (`tf_keras.api._v1.keras`), or None without tf_keras."""
    import importlib

    try:
        return importlib.import_module("tf_keras.api._v1.keras")
    except ImportError:
        return None


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(keyword=cst.Name(name), equal=TIGHT_EQUAL)


def rewrite_call(node: cst.Call, plan: CallPlan, label: str
                 ) -> tuple[cst.Call, Optional[tuple[Kind, str]]]:
    """`node` with the positional arguments TF 2.21 would read as other parameters written
    by TF 1.15's names and `plan.renamed` keywords renamed, and what to report (None: nothing
    changed); a call it cannot write so is left, reported as not converted."""
    args = list(node.args)
    if any(arg.star for arg in args):
        return node, None
    said = []
    positional = [index for index, arg in enumerate(args) if arg.keyword is None]
    late = positional[plan.first:] if plan.first is not None and len(positional) >= 2 else []
    if late:
        names, first = plan.names, plan.first
        if len(positional) > len(names) or (ANY_KEYWORD not in plan.accepted and not set(
                plan.renamed.get(n, n) for n in names[first:len(positional)]) <= plan.accepted):
            return node, (Kind.NOT_CONVERTED,
                          f"{label}(...): TF 2 reads its positional arguments from position "
                          f"{first + 1} as other parameters, and does not take all of TF "
                          f"1.15's names for them {list(names[first:len(positional)])}: "
                          "left as is")
        for order, index in enumerate(late, start=first):
            args[index] = _keyword(args[index], names[order])
        written = ", ".join(f"{names[order]}=" for order in range(first, first + len(late)))
        said.append(f"positional {written} -> keywords (TF 2 reads those positions as other "
                    "parameters)")
    renamed = []
    for index, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value in plan.renamed:
            new = plan.renamed[arg.keyword.value]
            renamed.append(f"{arg.keyword.value}= -> {new}=")
            args[index] = arg.with_changes(keyword=cst.Name(new))
    if renamed:
        said.append(", ".join(renamed) + " (TF 2.21's name for that parameter)")
    if not said:
        return node, None
    return node.with_changes(args=args), (Kind.CHANGED, f"{label}(...): {'; '.join(said)}")


def rewrite_reported(rule: Rule, original: cst.Call, updated: cst.Call, plan: CallPlan,
                     label: str) -> cst.Call:
    """`rewrite_call`, with what it did added to `rule`'s findings at the original call."""
    updated, said = rewrite_call(updated, plan, label)
    if said is not None:
        rule.add(original, *said)
    return updated


class Tf115PositionsRule(Rule):
    NAME = "tf115-positions"
    DESCRIPTION = ("positional arguments TF 2.21 would read as other parameters -> TF 1.15's "
                   "keywords")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        path = self.names.v1_name(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if not path or any(arg.star for arg in updated_node.args):
            return updated_node
        updated_node = self._rename_keywords(original_node, path, updated_node)
        plan = moved_from(path)
        if plan is None:
            return updated_node
        return rewrite_reported(self, original_node, updated_node, plan, f"tf.{path}")

    def _rename_keywords(self, original_node: cst.Call, path: str, node: cst.Call) -> cst.Call:
        renamed = renamed_keywords(path)
        if not renamed or not any(arg.keyword is not None and arg.keyword.value in renamed
                                  for arg in node.args):
            return node
        args, written = [], []
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in renamed:
                written.append(f"{arg.keyword.value}= -> {renamed[arg.keyword.value]}=")
                arg = arg.with_changes(keyword=cst.Name(renamed[arg.keyword.value]))
            args.append(arg)
        self.add(original_node, Kind.CHANGED,
                 f"tf.{path}(...): {', '.join(written)} (the name of that parameter in "
                 f"tf.{_contrib_home(path)}, which migrate calls instead)")
        return node.with_changes(args=args)
