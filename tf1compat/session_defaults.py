"""A session's graph and the session itself as this thread's defaults, until it closes.

TF1 code writes `sess = tf.Session()` and then builds ops and runs them:
`x = tf.constant(2); sess.run(x)`. On TF 2.21 ops built outside a graph are eager
tensors that no session can run, so `tf1compat.session(...)` makes its graph the
default graph (graph mode) and the session the default session of the calling
thread from the moment it is created until it is closed -- what TF1's
`tf.InteractiveSession` does. The `with` form behaves as before: the block ends,
the session closes, and the defaults are what they were.

TensorFlow's default stacks are strictly nested, so sessions leave them last in,
first out: a session closed while a later one (or a `with graph.as_default()`
block opened after it) is still the default stays on the stacks, closed, until
what is above it has left.
"""

from __future__ import annotations

import threading

_thread = threading.local()


def _entries() -> list["ThreadDefaults"]:
    if not hasattr(_thread, "entries"):
        _thread.entries = []
    return _thread.entries


class ThreadDefaults:
    """Enters `session.graph.as_default()` and `session.as_default()` on this thread."""

    def __init__(self, session) -> None:
        self.session = session
        self.thread = threading.get_ident()
        self.closed = False
        self._graph = session.graph.as_default()
        self._graph.__enter__()
        self._default = session.as_default()
        try:
            self._default.__enter__()
        except BaseException:
            self._graph.__exit__(None, None, None)
            raise
        _entries().append(self)

    def leave(self) -> None:
        """Marks the session closed; leaves the defaults now when nothing is above them.

        From another thread (TensorFlow closes a session that leaves a `with` block
        by an exception in a thread of its own) it only marks; the owning thread
        leaves the defaults at its next `leave`.
        """
        self.closed = True
        if threading.get_ident() == self.thread:
            _unwind()


def _unwind() -> None:
    import tensorflow as tf

    entries = _entries()
    while entries and entries[-1].closed:
        top = entries[-1]
        if tf.compat.v1.get_default_session() is not top.session or \
                tf.compat.v1.get_default_graph() is not top.session.graph:
            return  # something entered after it is still open: leave once that has gone
        entries.pop()
        top._default.__exit__(None, None, None)
        top._graph.__exit__(None, None, None)
