"""Every run-time change tf1compat and modern make to another library or to Python itself,
through one registry.

A change to TensorFlow, Keras 3, tf_keras, tf_slim, tensorflow-estimator, NumPy,
`builtins`, `sys.meta_path` or `sys.modules` is declared once in
`tf1compat.shared.patch_table` (its target, the library it belongs to and the versions it
was checked on, the feature it serves, what happens without it) and made here:

- `apply(key, change)` makes a declared change once: a second call returns the first one's
  result and changes nothing; `change()` returns (result, undo);
- `replace_attribute(key, owner, name, wrap)` is `apply` for the common case, an attribute
  replaced by `wrap(original)`; `insert_finder(key, make_finder)` puts a finder first on
  `sys.meta_path`; `set_attributes` sets several attributes and returns their undo;
- `all_or_nothing()` is a block after which either every change made in it stands, or, when
  it raised, none does;
- `undo(key)` takes one change back, `installed()` lists those in effect (`tf1compat doctor`
  prints them), `absent(patch)` names a target the installed library lacks.

An undeclared key is refused: nothing patches another library unseen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import sys
import threading
from typing import Any, Callable, Iterator, Optional

from tf1compat.shared.patch_table import DECLARED_PATCHES, Patch

__all__ = ["Patch", "UndeclaredPatchError", "apply", "replace_attribute", "set_attributes",
           "insert_finder", "all_or_nothing", "undo", "undo_all", "installed", "is_installed",
           "declared", "absent"]


class UndeclaredPatchError(KeyError):
    """A change asked for under a key `tf1compat.shared.patch_table` does not declare."""


@dataclasses.dataclass
class _Change:
    patch: Patch
    result: Any
    undo: Callable[[], None]


# One lock per key, held while its change is made or undone (a change may import modules,
# whose import hooks make other changes: holding one lock for all could deadlock threads);
# `_lock` only guards the two dicts.
_lock = threading.Lock()
_key_locks: dict[str, threading.RLock] = {}
_changes: dict[str, _Change] = {}
_blocks = threading.local()  # the keys each open all_or_nothing block of this thread made


def _lock_of(key: str) -> threading.RLock:
    with _lock:
        return _key_locks.setdefault(key, threading.RLock())


def declared(key: str) -> Patch:
    """The declaration of `key` (UndeclaredPatchError when there is none)."""
    try:
        return DECLARED_PATCHES[key]
    except KeyError:
        raise UndeclaredPatchError(
            f"run-time patch {key!r} is not declared in tf1compat.shared.patch_table; "
            f"declared: {', '.join(sorted(DECLARED_PATCHES))}") from None


def apply(key: str, change: Callable[[], tuple[Any, Callable[[], None]]]) -> Any:
    """Makes the declared change `key` unless it is in effect; returns its result.

    Args:
      key: the change's key in `tf1compat.shared.patch_table`.
      change: makes the change; returns (result, a function that undoes it). Not called
        when the change is already in effect.
    """
    patch = declared(key)
    with _lock_of(key):
        with _lock:
            if key in _changes:
                return _changes[key].result
        result, undo_change = change()
        with _lock:
            _changes[key] = _Change(patch, result, undo_change)
        for block in getattr(_blocks, "open", []):
            block.append(key)
        return result


_NOT_OWN = object()  # an attribute the object did not hold itself (absent, or inherited)


def set_attributes(changes: list[tuple[Any, str, Any]]) -> Callable[[], None]:
    """Sets each (owner, name, value); returns what puts every one back as it was: the
    owner's own value again, or none of its own where it had none (an inherited one shows
    through again)."""
    before = [(owner, name, vars(owner).get(name, _NOT_OWN) if hasattr(owner, "__dict__")
               else getattr(owner, name, _NOT_OWN)) for owner, name, _ in changes]
    for owner, name, value in changes:
        setattr(owner, name, value)

    def put_back() -> None:
        for owner, name, value in reversed(before):
            if value is _NOT_OWN:
                with contextlib.suppress(AttributeError):
                    delattr(owner, name)
            else:
                setattr(owner, name, value)

    return put_back


def replace_attribute(key: str, owner: Any, name: str, wrap: Callable[[Any], Any]) -> Any:
    """Sets `owner.name` to `wrap(original)` once (`original` None where there is none);
    returns the original. Undoing puts back what `owner` held itself (`set_attributes`)."""

    def change():
        original = getattr(owner, name, None)
        return original, set_attributes([(owner, name, wrap(original))])

    return apply(key, change)


def insert_finder(key: str, make_finder: Callable[[], Any]) -> Any:
    """Puts `make_finder()` first on `sys.meta_path` once; returns the finder. Undoing takes
    it off again."""

    def change():
        finder = make_finder()
        sys.meta_path.insert(0, finder)
        return finder, lambda: sys.meta_path.remove(finder) if finder in sys.meta_path \
            else None

    return apply(key, change)


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """A block whose changes all stand, or, if it raises, are all undone (latest first)."""
    made: list[str] = []
    blocks = _blocks.__dict__.setdefault("open", [])
    blocks.append(made)
    try:
        yield
    except BaseException:
        for key in reversed(made):
            undo(key)
        raise
    finally:  # by identity: an enclosing block that made the same changes holds an equal list
        del blocks[next(index for index in range(len(blocks) - 1, -1, -1)
                        if blocks[index] is made)]


def undo(key: str) -> bool:
    """Takes change `key` back; False when it was not in effect."""
    with _lock_of(key):
        with _lock:
            change = _changes.pop(key, None)
        if change is None:
            return False
        change.undo()
        return True


def undo_all() -> None:
    """Takes every change back, latest first."""
    with _lock:
        keys = list(_changes)
    for key in reversed(keys):
        undo(key)


def is_installed(key: str) -> bool:
    with _lock:
        return key in _changes


def installed() -> list[Patch]:
    """The declarations of the changes in effect in this process, in the order made."""
    with _lock:
        return [change.patch for change in _changes.values()]


def absent(patch: Patch) -> Optional[str]:
    """The target of `patch` the installed library lacks, named with why; None when present
    (or when the target is not an attribute: sys.meta_path, sys.modules entries)."""
    if not patch.attribute:
        return None
    module_name, _, path = patch.attribute.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as error:
        return f"{module_name} (no such module: {error})"
    for part in filter(None, path.split(".")):
        if not hasattr(value, part):
            return f"{module_name}.{path} (no such attribute)"
        value = getattr(value, part)
    return None
