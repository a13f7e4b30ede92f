"""`arg_scope` / `add_arg_scope`: default keyword arguments for a block of code (slim's).

Contract (tf.contrib.framework in TF 1.x):

- `@add_arg_scope` makes a function take its missing keyword arguments from
  the innermost `arg_scope` that lists it; keywords given in the call win.
- `with arg_scope([f, g], k=v) as scope:` stacks on the enclosing scope
  (its values are merged, the inner ones win) and yields the scope, a dict;
  `with arg_scope(scope):` enters a saved scope again (no keywords allowed).
- Listing a function that is not decorated raises ValueError; a first
  argument that is neither a list/tuple nor a saved scope raises TypeError.
- The stack is one per process, as in TF 1.x (not per thread).

>>> @add_arg_scope
... def f(x, scale=1):
...     return x * scale
>>> with arg_scope([f], scale=3):
...     f(2), f(2, scale=5)
(6, 10)
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Any, Callable, Iterator

_STACK: list[dict[str, dict[str, Any]]] = [{}]
_DECORATED: dict[str, tuple[str, ...]] = {}  # key -> the function's argument names


def _key(func: Callable) -> str:
    # `_key_op`: the key tf_slim's arg_scope gives its functions (slim.nets' blocks), so one
    # stack serves both (tf1compat.contrib.tf_slim_arg_scope)
    # (a partial, as contrib.layers.linear is, has neither name: TF 1.15 keyed it by str())
    qualname = getattr(func, "__qualname__", None)
    return getattr(func, "_arg_scope_key", None) or getattr(func, "_key_op", None) or \
        (f"{getattr(func, '__module__', '')}.{qualname}" if qualname else repr(func))


def current_arg_scope() -> dict[str, dict[str, Any]]:
    return _STACK[-1]


def add_arg_scope(func: Callable) -> Callable:
    """Decorates `func` so an enclosing `arg_scope` can supply its keyword arguments."""
    key = _key(func)

    @functools.wraps(func)
    def with_scope(*args, **kwargs):
        defaults = current_arg_scope().get(key)
        if defaults:
            kwargs = {**defaults, **kwargs}
        return func(*args, **kwargs)

    with_scope._arg_scope_key = key
    _DECORATED[key] = _keyword_names(func)
    return with_scope


def _keyword_names(func: Callable) -> tuple[str, ...]:
    """What TF 1.15 lists for `arg_scoped_arguments`: the positional parameters that have a
    default; all positional parameters when none has one (its slice `[-0:]` takes them all)."""
    try:
        parameters = [p for p in inspect.signature(func).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return ()
    with_defaults = [p.name for p in parameters if p.default is not p.empty]
    return tuple(with_defaults or (p.name for p in parameters))


def has_arg_scope(func: Callable) -> bool:
    """Whether `func` was decorated with `add_arg_scope`."""
    return _key(func) in _DECORATED


def arg_scoped_arguments(func: Callable) -> list[str]:
    """The keyword argument names of a decorated function, as TF 1.15 lists them (ValueError
    if it is not decorated)."""
    if not has_arg_scope(func):
        raise ValueError(f"{_name(func)} is not decorated with @add_arg_scope")
    return list(_DECORATED[_key(func)])


def _name(func: Callable) -> str:
    return getattr(func, "__name__", repr(func))


@contextlib.contextmanager
def arg_scope(list_ops_or_scope, **kwargs) -> Iterator[dict[str, dict[str, Any]]]:
    """Sets default keyword arguments for the listed (decorated) functions, inside the block.

    Args:
      list_ops_or_scope: a list or tuple of functions decorated with `add_arg_scope`, or a
        scope yielded by an earlier `arg_scope` (then no keywords may be given).
      **kwargs: the keyword arguments to supply.

    Raises:
      ValueError: a listed function is not decorated, or keywords came with a saved scope.
      TypeError: the first argument is neither a list/tuple nor a saved scope.
    """
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, "
                             f"kwargs must be empty; received kwargs={sorted(kwargs)}")
        scope = list_ops_or_scope
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope "
                            f"(i.e. dict); received {type(list_ops_or_scope).__name__}")
        scope = dict(current_arg_scope())
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                raise ValueError(f"{_name(op)} is not decorated with @add_arg_scope")
            key = _key(op)
            scope[key] = {**scope.get(key, {}), **kwargs}
    _STACK.append(scope)
    try:
        yield scope
    finally:
        _STACK.pop()
