"""TF1 calls that tf_upgrade_v2 would turn into calls TF 2.21 refuses -> `tf.compat.v1`.

tf_upgrade_v2 moves many calls to TF 2's own function of the same name and renames their
keywords, but not every TF1 argument has a TF 2 form: `tf.constant(v, dtype, shape, name,
verify_shape)` keeps five positional arguments that TF 2's `tf.constant` does not take,
`verify_shape=` becomes `verify_shape_is_now_always_true=` (on purpose: to fail),
`tf.nn.embedding_lookup(..., partition_strategy='div')` keeps an argument TF 2's lacks.
The migrated script would stop there (and on `tf.nn.fractional_max_pool(...,
deterministic=True)` tf_upgrade_v2 itself fails, so the whole file would stay unrenamed). Here, before tf_upgrade_v2 runs, each call of a
`tf.` function whose TF 1.15 parameters differ from TF 2's is upgraded on its own; when
what comes out does not bind to the function it then calls, the call is written as
`tf.compat.v1.X(...)`, TF 2.21's function with TF1's parameters, which tf_upgrade_v2
leaves as it is, and reported (`tf.image.draw_bounding_boxes(images, boxes)`: TF 2's
requires `colors`). So is a call from which tf_upgrade_v2 drops an argument the
TF1 call passed (on purpose: `tf.cond`'s `strict`, `tf.gradients`'
`colocate_gradients_with_ops`, `resize_images`' `align_corners`, `conv2d`'s
`use_cudnn_on_gpu`): the call written would run, but without what that argument said.
"""

from __future__ import annotations

import ast
import functools
import inspect
from typing import Any, Optional

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.tf115_positions import tf115_entry
from tf1compat.migrate.upgrade_v2 import FAILED, renamed_to, upgrade


def _resolve(dotted: str) -> Any:
    import tensorflow as tf

    value: Any = tf
    for part in dotted.split(".")[1:]:
        value = getattr(value, part)
    return value


@functools.lru_cache(maxsize=None)
def _differs_from_tf2(path: str) -> bool:
    """Whether TF 1.15's parameters of `tf.<path>` are not all those of TF 2.21's function
    that tf_upgrade_v2 calls in its place (`tf.<path>`, or the name it renames it to)."""
    entry = tf115_entry(path)
    if entry is None:
        return False
    target = renamed_to(f"tf.{path}") or f"tf.{path}"
    if target.startswith("tf.compat.v1."):
        return False  # TF1's own function: it takes TF1's parameters
    try:
        tf2 = inspect.signature(_resolve(target)).parameters
    except (AttributeError, ImportError, TypeError, ValueError):
        return False
    if any(p[0] not in tf2 for p in entry["parameters"] if not p[0].startswith("_")):
        return True
    # or TF 2 requires what TF 1.15 did not (`tf.image.draw_bounding_boxes`' `colors`)
    tf1_required = {p[0] for p in entry["parameters"] if len(p) < 3}
    return any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               and name not in tf1_required for name, p in tf2.items())


def _argument_names(call: cst.Call) -> list[str]:
    return [arg.keyword.value if arg.keyword else f"argument {index + 1}"
            for index, arg in enumerate(call.args)]


def dropped(call: cst.Call, path: str) -> Optional[str]:
    """The first argument of `tf.<path>(...)` that tf_upgrade_v2 drops from the call, or None.

    Each argument is written as a placeholder name (`_tf1_argument_0`), so one that
    tf_upgrade_v2 moves, renames or rewrites (`rate=1 - (keep_prob)`) is still found."""
    placeholders = [arg.with_changes(value=cst.Name(f"_tf1_argument_{index}"))
                    for index, arg in enumerate(call.args)]
    written = cst.Module(body=[]).code_for_node(call.with_changes(
        func=cst.parse_expression(f"tf.{path}"), args=placeholders))
    upgraded, findings = upgrade(f"import tensorflow as tf\n_ = {written}\n", "call.py")
    if any(f.message.startswith(FAILED) for f in findings):
        return None  # `refusal` says why
    kept = {node.id for node in ast.walk(ast.parse(upgraded)) if isinstance(node, ast.Name)}
    for index, name in enumerate(_argument_names(call)):
        if f"_tf1_argument_{index}" not in kept:
            return f"tf_upgrade_v2 drops `{name}`, and with it what the TF1 call asked for"
    return None


def refusal(call_code: str) -> Optional[str]:
    """Why TF 2.21 would refuse `call_code` (a `tf.X(...)` call) once tf_upgrade_v2 has
    rewritten it, or None."""
    upgraded, findings = upgrade(f"import tensorflow as tf\n_ = {call_code}\n", "call.py")
    failed = [f.message for f in findings if f.message.startswith(FAILED)]
    if failed:  # tf_upgrade_v2 leaves tf.compat.v1 calls alone: the call survives there
        return failed[0]
    try:
        call = ast.parse(upgraded).body[-1].value
    except (SyntaxError, AttributeError, IndexError):
        return None
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    func = ast.unparse(call.func)
    if not func.startswith("tf.") or func.startswith("tf.compat.v1."):
        return None
    try:
        signature = inspect.signature(_resolve(func))
    except (AttributeError, ImportError, TypeError, ValueError):
        return None
    try:
        signature.bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as error:
        return f"{ast.unparse(call)[:120]}: {error}"
    return None


class V1FallbackRule(Rule):
    NAME = "v1-fallback"
    DESCRIPTION = ("calls TF 2 would refuse after tf_upgrade_v2, or that it drops an argument "
                   "of -> tf.compat.v1 (TF1's parameters)")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        path = self.names.v1_name(func) if isinstance(func, cst.Attribute) else None
        if not path or not updated_node.args or path.startswith("contrib.") or \
                self.names.is_compat_v1(func) or \
                not _differs_from_tf2(path):  # (tf.compat.v1's: tf_upgrade_v2 leaves it)
            return updated_node  # (tf.compat.v1 has no contrib: the contrib rule's, after)
        written = cst.Module(body=[]).code_for_node(updated_node.with_changes(
            func=cst.parse_expression(f"tf.{path}")))
        why = refusal(written) or dropped(updated_node, path)
        if why is None:
            return updated_node
        self.add(original_node, Kind.CHANGED,
                 f"tf.{path}(...) -> tf.compat.v1.{path}(...): after tf_upgrade_v2 it would "
                 f"not run, or not do what TF 1.15 does ({why})")
        return updated_node.with_changes(func=cst.parse_expression(self.names.code(path)))
