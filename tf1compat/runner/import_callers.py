"""Which code an import of tensorflow (or numpy) comes from, when its globals do not say.

The import hook tells user code from libraries by the importing module's `__file__`. Three
ways of importing give it no such globals, and TF 1.15 answered them all with TF1:
`exec(source, {})` (a config file, a cell runner: `__file__` is not in the dict),
`__import__("tensorflow")` called by hand (no globals at all), and
`importlib.import_module("tensorflow")`, which does not go through `__import__` at all.
For the first two the importing frame, or the first frame out of code compiled from a
string, names the file; the third is routed through the hook by a wrapper of
`importlib.import_module` (the registry's "python.import-module").
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Optional

# Frames of these files are the machinery between a caller and the import, not the caller.
_MACHINERY = ("<string>", "<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")


def caller_file(depth: int) -> Optional[str]:
    """The file of the first frame `depth` levels up (and out) that is real source: code run
    by `exec` from a string names the file of the frame that ran it."""
    frame = sys._getframe(depth + 1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename not in _MACHINERY and filename != __file__:
            return filename
        frame = frame.f_back
    return None


def globals_of_caller(depth: int) -> dict[str, Any]:
    """Globals that name the calling file (for the hook's verdict only)."""
    return {"__file__": caller_file(depth + 1)}


def routed_import_module(hook: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The wrapper of `importlib.import_module` that gives user code what `import name` would:
    the TF1 module for `tensorflow`, `tensorflow.contrib.slim` as served."""

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def import_module(name, package=None):
            if name.startswith(".") or not hook.is_hooked(name):
                return original(name, package)
            caller = globals_of_caller(1)
            if not hook.is_user_file(caller["__file__"]):
                return original(name, package)
            module = hook(name, caller, None, (), 0)
            for part in name.split(".")[1:]:
                module = getattr(module, part)
            return module

        import_module.__wrapped__ = original
        return import_module

    return wrap
