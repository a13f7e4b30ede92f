"""TF 0.x names and argument orders under `tf1compat run`, read from the values passed.

`serve(path, v1)` gives the TF1 module's value for `tf.<path>` where the
0.x -> 1.0 table (`tf1compat.tf0_names`) has something to say:

- a 0.x name (`tf.pack`, `tf.mul`, `tf.train.SummaryWriter`) is its 1.x
  function, wrapped only where the arguments changed too (`batch_matmul`'s
  `adj_x`, `batch_svd`'s order);
- a 1.x name whose arguments 0.x gave otherwise is a wrapper that tells the two
  apart from the values: `tf.concat(0, [a, b])` (an int axis first) is read as
  0.x, `tf.concat([a, b], 0)` as 1.x; `tf.split(1, 2, x)` likewise; the
  cross-entropy functions (keyword-only in TF 1.x, positional `logits, labels`
  in 0.x); `tf.reverse(x, [False, True])` (one bool per dimension in 0.x);
  `tf.zeros_initializer` passed as a function, as 0.x did. A call that can be
  read both ways raises `Tf0ArgumentsError` naming the call and how to write it.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable, Optional

from tf1compat import tf0_names
from tf1compat.shared.errors import Tf1CompatError

_NEW_ORDER = {
    "concat": "(values, axis)",
    "split": "(value, num_or_size_splits, axis)",
    "svd": "(tensor, full_matrices, compute_uv)",
}
_OLD_ORDER = {
    "concat": "(concat_dim, values)",
    "split": "(split_dim, num_split, value)",
    "svd": "(tensor, compute_uv, full_matrices)",
}
_KEYWORDS = {
    "concat": "tf.concat(values=..., axis=...)",
    "split": "tf.split(value=..., num_or_size_splits=..., axis=...)",
    "svd": "tf.svd(tensor, full_matrices=..., compute_uv=...)",
}


class Tf0ArgumentsError(Tf1CompatError, TypeError):
    """A call whose arguments read both as TF 0.x's order and as TF 1.x's."""


def _where() -> str:
    """'file.py:LINE' of the innermost caller outside tf1compat and TensorFlow."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(("tf1compat", "tensorflow", "keras", "tf_keras")):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


def _describe(value: Any) -> str:
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if dtype is not None and shape is not None and not isinstance(value, (list, tuple)):
        return f"<{type(value).__name__} dtype={getattr(dtype, 'name', dtype)} shape={shape}>"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _undecided(name: str, args: tuple) -> Tf0ArgumentsError:
    shown = ", ".join(_describe(a) for a in args)
    return Tf0ArgumentsError(
        f"tf.{name}({shown}) at {_where()}: the arguments read both as TF 0.x's order "
        f"{_OLD_ORDER[name]} and as TF 1.x's {_NEW_ORDER[name]}, and their values do not "
        f"tell which; write them as keywords: {_KEYWORDS[name]}")


def _rank(value: Any) -> Optional[int]:
    """The rank of a value (None when unknown: a tensor of unknown shape)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, (list, tuple)):
        return 1
    shape = getattr(value, "shape", None)
    if shape is None:
        return 0 if isinstance(value, (int, float, complex, str, bytes)) else None
    try:
        return len(shape)
    except (TypeError, ValueError):  # a TensorShape of unknown rank
        return None


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return False
    if getattr(dtype, "is_integer", None) is True:  # a tf.DType
        return True
    return getattr(dtype, "kind", "") in ("i", "u")  # a numpy dtype


def _axis_like(value: Any) -> Optional[bool]:
    """True: a scalar integer (an axis); False: cannot be one; None: cannot tell."""
    if not _is_integer(value):
        return False
    rank = _rank(value)
    return None if rank is None else rank == 0


def _values_like(value: Any) -> Optional[bool]:
    """True: a list or a tensor of rank >= 1 (what concat joins, split cuts)."""
    if isinstance(value, (list, tuple)):
        return True
    rank = _rank(value)
    return None if rank is None else rank >= 1


def _rename_keywords(name: str, kwargs: dict) -> dict:
    renames = tf0_names.KEYWORD_RENAMES.get(name, {})
    return {renames.get(key, key): value for key, value in kwargs.items()}


def _bind_old(name: str, args: tuple, kwargs: dict) -> dict:
    """The 0.x positional arguments as 1.x keywords, merged with the keyword ones."""
    names = tf0_names.OLD_POSITIONS[name]
    if len(args) > len(names):
        raise TypeError(f"tf.{name} takes at most {len(names)} positional arguments as TF 0.x "
                        f"had it {names}; received {len(args)}")
    bound = dict(kwargs)
    for key, value in zip(names, args):
        if key in bound:
            raise TypeError(f"tf.{name} got {key} twice: positionally (TF 0.x order {names}) "
                            f"and as {key}=")
        bound[key] = value
    return bound


def _concat_is_old(first: Any, second: Any) -> Optional[bool]:
    """Whether concat(first, second) is 0.x's (concat_dim, values); None: cannot tell."""
    first_axis, second_axis = _axis_like(first), _axis_like(second)
    if first_axis and not second_axis:  # an int first: 1.x cannot concatenate a scalar
        return True
    if second_axis and not first_axis:
        return False
    if _values_like(first) or first_axis is False:
        return False
    if isinstance(second, (list, tuple)):
        return True
    return None


def _concat(target: Callable) -> Callable:
    def concat(*args, **kwargs):
        kwargs = _rename_keywords("concat", kwargs)
        if len(args) == 1 and "values" in kwargs:  # concat(0, values=...): 0.x
            return target(**_bind_old("concat", args, kwargs))
        if len(args) < 2:
            return target(*args, **kwargs)
        old = _concat_is_old(args[0], args[1])
        if old is None:
            raise _undecided("concat", args)
        return target(**_bind_old("concat", args, kwargs)) if old else target(*args, **kwargs)
    return concat


def _split(target: Callable) -> Callable:
    def split(*args, **kwargs):
        kwargs = _rename_keywords("split", kwargs)
        if not args:
            return target(**kwargs)
        first = args[0]
        if "value" in kwargs or _axis_like(first):
            return target(**_bind_old("split", args, kwargs))
        if _values_like(first) or _axis_like(first) is False or \
                (len(args) >= 3 and _axis_like(args[2])):
            return target(*args, **kwargs)
        raise _undecided("split", args)
    return split


# The 1.x functions whose first parameter was `_sentinel=None`, there to make every call
# name its arguments: the 0.x positional order is read here instead, and the parameter kept.
_SENTINEL_FIRST = ("nn.softmax_cross_entropy_with_logits",
                   "nn.sparse_softmax_cross_entropy_with_logits",
                   "nn.sigmoid_cross_entropy_with_logits")


def _sentinel_checked(name: str, kwargs: dict) -> dict:
    if kwargs.pop("_sentinel", None) is not None:
        raise ValueError(f"Only call `{name.rpartition('.')[2]}` with named arguments "
                         "(labels=..., logits=..., ...); received _sentinel=")
    return kwargs


def _with_sentinel(target: Callable) -> inspect.Signature:
    """TF 1.x's signature: `_sentinel=None`, then the function's own parameters."""
    signature = inspect.signature(target)
    sentinel = inspect.Parameter("_sentinel", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 default=None)
    return signature.replace(parameters=[sentinel, *signature.parameters.values()])


def _positional_old(name: str, target: Callable) -> Callable:
    """A function whose positional arguments are 0.x's (a 0.x name, or keyword-only in 1.x)."""
    def call(*args, **kwargs):
        kwargs = _rename_keywords(name, kwargs)
        if name in _SENTINEL_FIRST:
            kwargs = _sentinel_checked(name, kwargs)
        if args:
            return target(**_bind_old(name, args, kwargs))
        return target(**kwargs)
    return call


def _svd(target: Callable) -> Callable:
    def svd(*args, **kwargs):
        # svd(x, a, b): 0.x read (compute_uv=a, full_matrices=b), 1.x the other way round;
        # only a == b reads the same both ways.
        if len(args) == 2 or (len(args) >= 3 and bool(args[1]) != bool(args[2])):
            raise _undecided("svd", args)
        return target(*args, **kwargs)
    return svd


def _reverse(target: Callable, v1: Any) -> Callable:
    def reverse(tensor, axis=None, name=None, dims=None):
        dims = axis if dims is None else dims
        dtype = getattr(dims, "dtype", None)
        if isinstance(dims, (list, tuple)) and dims and all(isinstance(d, bool) for d in dims):
            dims = v1.constant([i for i, flag in enumerate(dims) if flag], dtype=v1.int32)
        elif getattr(dtype, "kind", "") == "b":  # a numpy bool array
            dims = v1.constant([i for i, flag in enumerate(dims.reshape(-1)) if flag],
                               dtype=v1.int32)
        elif getattr(dtype, "is_bool", False):  # a bool tensor: its True positions
            dims = v1.reshape(v1.where(dims), [-1])
        return target(tensor, dims, name=name)
    return reverse


def _initializer(target: type, v1: Any) -> type:
    """The 1.x class (TF 1.15's kind and signature), also callable as 0.x's function."""
    class Initializer(target):
        def __new__(cls, *args, **kwargs):
            shape = args[0] if args else kwargs.get("shape")
            if isinstance(shape, (list, tuple)) or type(shape).__name__ == "TensorShape" or \
                    _is_integer(shape):
                # 0.x: the function itself, called with a shape (as get_variable calls it)
                dtype = kwargs.get("dtype", args[1] if len(args) > 1 else v1.float32)
                return target()(shape, dtype=dtype)
            return super().__new__(cls)

    for attribute in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(Initializer, attribute, getattr(target, attribute))
    Initializer.__signature__ = inspect.signature(target)
    return Initializer


def _wrapped(path: str, target: Any, v1: Any) -> Any:
    if path == "concat":
        return _concat(target)
    if path == "split":
        return _split(target)
    if path == "svd":
        return _svd(target)
    if path in ("batch_matmul", "batch_svd"):
        return _positional_old(path, target)
    if path in tf0_names.KEYWORD_ONLY:
        return _positional_old(path, target)
    if path in tf0_names.BOOL_DIMS_TO_AXES:
        return _reverse(target, v1)
    if path in tf0_names.BECAME_CLASSES:
        return _initializer(target, v1)
    return target


@functools.lru_cache(maxsize=None)
def _serve(path: str, v1: Any) -> Any:
    value = v1
    for part in (tf0_names.renamed(path) or path).split("."):
        value = getattr(value, part)
    wrapped = _wrapped(path, value, v1)
    if wrapped is not value and not isinstance(wrapped, type):
        functools.update_wrapper(wrapped, value, updated=())
        if path in _SENTINEL_FIRST:
            wrapped.__signature__ = _with_sentinel(value)
    return wrapped


def serve(path: str, v1: Any) -> Optional[Any]:
    """The value of `tf.<path>` for a script under `run`, or None where 0.x changed nothing.

    Args:
      path: the name under `tf.` ('pack', 'nn.softmax_cross_entropy_with_logits').
      v1: the `tf.compat.v1` module.
    """
    if tf0_names.renamed(path) is None and not tf0_names.changed_call(path):
        return None
    return _serve(path, v1)
