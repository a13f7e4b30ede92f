"""Is TensorFlow's runtime started yet, and what started it?

TF2 fixes device options (visible devices, logical devices, memory growth,
thread pools) when its eager runtime initialises: the first op, the first
`list_logical_devices()`, the first `get_memory_info()`. After that TF raises
a bare RuntimeError. `modern.configure` asks here first, so it can say which
line of the user's program started the runtime and how to reorder it.

To know that line, importing `modern` arranges (cheaply, once, through
`tf1compat.shared.import_watch`) to note the caller of the runtime's first
initialisation; the note is taken only for that one call and the original
method is put back right after.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import threading
import traceback
from typing import Optional

from tf1compat.shared import patches
from tf1compat.shared.import_watch import when_imported
from tf1compat.shared.tf_internals import EAGER_CONTEXT

_CONTEXT_MODULE = EAGER_CONTEXT.module
WATCH = "tf.eager-context-watch"  # its declaration in tf1compat.shared.patch_table
_lock = threading.Lock()
_first_initializer: Optional[str] = None

# Frames inside these packages (or the standard library) are not "the user's program".
_LIBRARY_PACKAGES = ("tensorflow", "keras", "tf_keras", "tf1compat", "modern", "absl")


def is_initialized() -> bool:
    """True once TensorFlow's eager runtime has started in this process.

    Importing TensorFlow does not start it; this check never starts it either.
    """
    context_module = sys.modules.get(_CONTEXT_MODULE)
    if context_module is None:
        return False
    # A TensorFlow whose Context lacks the handle: unknown, so "not yet" (TF then raises its own).
    return getattr(context_module.context(), "_context_handle", None) is not None


def first_initializer() -> Optional[str]:
    """Where the runtime was first initialised, e.g. "train.py:12 (tf.constant)", if known."""
    return _first_initializer


def _library_roots() -> tuple[str, ...]:
    roots = [sysconfig.get_paths()["stdlib"] + os.sep]
    for name in _LIBRARY_PACKAGES:
        module = sys.modules.get(name)
        roots.extend(os.path.join(path, "") for path in getattr(module, "__path__", ()))
    return tuple(roots)


def _describe(stack: list[traceback.FrameSummary]) -> str:
    """The last frame of the user's program on the stack, with its line of code."""
    roots = _library_roots()
    for frame in reversed(stack):
        if not frame.filename.startswith(roots) and not frame.filename.startswith("<frozen"):
            code = f" (`{frame.line}`)" if frame.line else ""
            return f"{os.path.basename(frame.filename)}:{frame.lineno}{code}"
    return "TensorFlow itself (no frame of your program on the stack)"


def _watch_context_class(context_module) -> None:
    """Wraps `Context.ensure_initialized` to note its first caller (the registry's
    "tf.eager-context-watch"; a runtime started already undoes it at the next call)."""

    def wrap(original):
        def ensure_initialized(self):
            global _first_initializer
            if self._context_handle is None:
                with _lock:
                    if _first_initializer is None:
                        _first_initializer = _describe(traceback.extract_stack()[:-1])
            result = original(self)
            if self._context_handle is not None:
                patches.undo(WATCH)  # one note is enough
            return result

        return ensure_initialized

    patches.replace_attribute(WATCH, context_module.Context, "ensure_initialized", wrap)


def install_watch() -> None:
    """Notes the first initialisation of the runtime, now or once TF is imported.

    A failure to set the note up (TensorFlow's internals changed) is an
    `ImportWatchWarning`; the runtime then starts unnoted.
    """
    when_imported(_CONTEXT_MODULE, _watch_context_class)
