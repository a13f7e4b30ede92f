"""Keeps the pipeline's py_function calls out of Python's shutdown.

tf.data runs py_functions on its own threads and keeps prefetching while the
consumer is idle. If a script ends while one of its iterators is still alive
(say `batch = next(iter(pipeline.dataset))` at module level), Python starts
shutting down; a tf.data thread that then needs the GIL for a py_function is
ended by the interpreter mid-call, and the iterator's destructor waits for it
forever: the process hangs at exit.

`GUARD.call(...)` therefore builds every py_function behind an in-graph switch
(a resource variable). At exit (`atexit`, before the interpreter shuts down)
the switch is turned off, so no new call starts (the dataset falls back to its
pure-TensorFlow decoder, or fails the element), and the calls already running
are waited for.
"""

from __future__ import annotations

import atexit
import threading
import time
from typing import Any, Callable


class _Guard:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._closing = False
        self._switch = None

    def _variable(self) -> Any:
        import tensorflow as tf
        with self._lock:
            if self._switch is None:
                with tf.init_scope():
                    self._switch = tf.Variable(True, trainable=False, name="py_calls_allowed")
                atexit.register(self.close)
            return self._switch

    def _wrap(self, function: Callable) -> Callable:
        def guarded(*args: Any) -> Any:
            with self._lock:
                if self._closing:
                    raise RuntimeError("the interpreter is exiting")
                self._running += 1
            try:
                return function(*args)
            finally:
                with self._lock:
                    self._running -= 1
        return guarded

    def call(self, function: Callable, inputs: list, dtypes: list) -> list:
        """`tf.py_function(function, inputs, dtypes)`, or an error once the process exits."""
        import tensorflow as tf
        allowed = tf.debugging.Assert(self._variable().read_value(),
                                      ["the interpreter is exiting"])
        with tf.control_dependencies([allowed]):
            return tf.py_function(self._wrap(function), inputs, Tout=dtypes)

    def close(self, timeout: float = 10.0) -> None:
        """Stops new calls and waits for running ones (registered with atexit)."""
        with self._lock:
            self._closing = True
        try:
            self._switch.assign(False)
        except Exception:  # noqa: BLE001 - TensorFlow half unloaded at exit: nothing runs
            return
        deadline = time.monotonic() + timeout
        time.sleep(0.05)  # lets a call that passed the switch reach the counter
        while time.monotonic() < deadline:
            with self._lock:
                if not self._running:
                    return
            time.sleep(0.01)


GUARD = _Guard()
