"""Run a function once a module has finished importing, without importing it.

`import tf1compat` and `import modern` must stay cheap and must not import
TensorFlow, yet some of their services belong in every program that imports
TensorFlow later (hdfs:// paths, the Keras multi-worker fix under
`tf1compat launch`, `modern.runtime`'s note of what started TF's runtime).
`when_imported` runs a callback right after the named module's code has run:
now, if it has already been imported, or later, from a finder on
`sys.meta_path` that lets the normal finders find the module and then wraps
its loader.

The callback runs once. An exception in it is reported as a warning: the user's
`import` must succeed regardless.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
import warnings
from typing import Callable

from tf1compat.shared import patches

_lock = threading.Lock()
_pending: dict[str, list[Callable[[object], None]]] = {}


class ImportWatchWarning(UserWarning):
    """A function that was to run after a module's import failed."""


def _run(name: str, module, callbacks) -> None:
    for callback in callbacks:
        try:
            callback(module)
        except Exception as error:  # noqa: BLE001 - the import itself must not fail
            warnings.warn(ImportWatchWarning(
                f"after importing {name}: {getattr(callback, '__qualname__', callback)} "
                f"failed: {type(error).__name__}: {error}"), stacklevel=2)


def _fully_imported(module) -> bool:
    spec = getattr(module, "__spec__", None)
    return not getattr(spec, "_initializing", False)


class _AfterImportFinder(importlib.abc.MetaPathFinder):
    """Finds a watched module through the finders after it, then wraps its loader."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in _pending:
            return None
        finders = sys.meta_path
        start = finders.index(self) + 1 if self in finders else len(finders)
        for finder in finders[start:]:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            with _lock:
                callbacks = _pending.pop(fullname, [])
                if not _pending:
                    _remove_finder()
            _run(fullname, module, callbacks)

        loader.exec_module = exec_module
        return spec


WATCH = "python.import-watch"  # its declaration in tf1compat.shared.patch_table


def _remove_finder() -> None:
    patches.undo(WATCH)


def when_imported(name: str, callback: Callable[[object], None]) -> None:
    """Calls `callback(module)` once `name` has been imported (now, if it already is).

    Args:
      name: a full module name, e.g. "tensorflow".
      callback: called with the module object, once; its exceptions become an
        `ImportWatchWarning`.
    """
    module = sys.modules.get(name)
    if module is not None and _fully_imported(module):
        _run(name, module, [callback])
        return
    with _lock:
        _pending.setdefault(name, []).append(callback)
        patches.insert_finder(WATCH, _AfterImportFinder)
