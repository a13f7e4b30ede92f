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

import functools
import inspect
from typing import Any, Optional

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.surface import reference

_POSITIONAL_KINDS = ("positional", "either")  # the data's words for them
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
ANY_KEYWORD = "**"  # among the names a function takes: it has **kwargs


@functools.lru_cache(maxsize=1)
def _tf115() -> dict[str, Any]:
    return reference.load().names


def _tf2_parameters(path: str, root: Any) -> Optional[tuple[list[str], set[str]]]:
    """(positional names, all names) of `path` under `root` in TF 2.21, or None."""
    value = root
    try:
        for part in path.split("."):
            value = getattr(value, part)
        parameters = list(inspect.signature(value).parameters.values())
    except (AttributeError, ImportError, TypeError, ValueError):
        return None
    names = {p.name for p in parameters if p.kind != inspect.Parameter.VAR_KEYWORD}
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters):
        names.add(ANY_KEYWORD)  # takes TF 1.15's names through **kwargs (Keras's `implementation`)
    return [p.name for p in parameters if p.kind in _POSITIONAL], names


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


def tf115_entry(path: str) -> Optional[dict[str, Any]]:
    """TF 1.15's entry for `tf.<path>` when it is a function or class with parameters."""
    entry = _tf115().get(f"tf.{path}")
    if not entry or entry.get("kind") not in ("function", "class") or \
            not entry.get("parameters"):
        return None
    return entry


@functools.lru_cache(maxsize=None)
def moved_from(path: str) -> Optional[tuple[int, tuple[str, ...], frozenset[str]]]:
    """(the first position TF 2.21 gives another parameter, TF 1.15's positional names, the
    names TF 2.21's functions of that name take) for `tf.<path>`, or None where the
    positions agree or TF 1.15's are not known."""
    entry = tf115_entry(path)
    if entry is None:
        return None
    tf115 = [p[0] for p in entry["parameters"] if p[1] in _POSITIONAL_KINDS]
    import tensorflow as tf

    from tf1compat.migrate.upgrade_v2 import renamed_to

    first, accepted = None, set()
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
    for where, root in candidates:
        found = _tf2_parameters(where, root)
        if found is None:
            continue
        accepted |= found[1]
        moved = _first_moved(tf115, *found)
        if moved is not None:
            first = moved if first is None else min(first, moved)
    if first is None:
        return None
    return first, tuple(tf115), frozenset(accepted)


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
    positional, names = found
    tf115 = [p[0] for p in entry["parameters"] if p[1] in _POSITIONAL_KINDS]
    return {name: positional[index] for index, name in enumerate(tf115)
            if name not in names and index < len(positional) and positional[index] not in tf115}


@functools.lru_cache(maxsize=1)
def _legacy_keras_v1() -> Any:
    """tf_keras's TF1 API (`tf_keras.api._v1.keras`), or None without tf_keras."""
    import importlib

    try:
        return importlib.import_module("tf_keras.api._v1.keras")
    except ImportError:
        return None


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))


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
        args = list(updated_node.args)
        positional = [index for index, arg in enumerate(args) if arg.keyword is None]
        if len(positional) < 2:  # the first argument is the same one everywhere it matters
            return updated_node
        moved = moved_from(path)
        if moved is None:
            return updated_node
        first, names, accepted = moved
        late = positional[first:]
        if not late:
            return updated_node
        if len(positional) > len(names) or (ANY_KEYWORD not in accepted and
                                            not set(names[first:len(positional)]) <= accepted):
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"tf.{path}(...): TF 2 reads its positional arguments from position "
                     f"{first + 1} as other parameters, and does not take all of TF 1.15's "
                     f"names for them {names[first:len(positional)]}: left as is")
            return updated_node
        for order, index in enumerate(late, start=first):
            args[index] = _keyword(args[index], names[order])
        written = ", ".join(f"{names[order]}=" for order in range(first, first + len(late)))
        self.add(original_node, Kind.CHANGED,
                 f"tf.{path}(...): positional {written} -> keywords (TF 2 reads those "
                 "positions as other parameters)")
        return updated_node.with_changes(args=args)

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
