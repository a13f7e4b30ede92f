"""`tf1compat.session(...)`: a TF1 session with ConfigProto options, on TF 2.21.

`session(...)` checks its options at the call and returns the session itself,
used as `with tf1compat.session(...) as sess:` or as `sess = tf1compat.session(...)`
(then closed by `sess.close()`). From its creation until it is closed, the
session's graph is this thread's default graph (graph mode) and the session is
the default session, so ops built after it belong to it, as in TF1 code; once
it is closed (at the end of the `with` block) the defaults are what they were
(no `disable_v2_behavior()`). See `tf1compat.session_defaults`.

TensorFlow fixes a process's GPU options (growth, the memory limit, visible
and virtual devices, the allocator) when the first session creates the GPU devices; a later
session's different values are silently ignored by TensorFlow. This module
records what the first session asked for and warns when a later one asks for
something else.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any, Optional

from tf1compat import session_defaults
from tf1compat.shared import device_errors
from tf1compat.shared.option_table import OPTION_SPECS
from tf1compat.shared.options import SessionOptions

# The options TensorFlow fixes for the whole process with the first GPU
# session, and what it uses for one a session leaves unset.
_GPU_DEFAULTS = {spec.keyword: spec.process_wide_default for spec in OPTION_SPECS
                 if spec.process_wide}


def _effective(options: SessionOptions, field: str) -> Any:
    value = getattr(options, field)
    return _GPU_DEFAULTS[field] if value is None else value


def _shown(options: SessionOptions, field: str) -> str:
    value = getattr(options, field)
    if value is None:
        return f"{field}={_GPU_DEFAULTS[field]!r} (left unset: TensorFlow's default)"
    return f"{field}={value!r}"


class GpuOptionsIgnoredWarning(UserWarning):
    """A session asked for GPU options other than those the process already has."""


class _ProcessGpuOptions:
    """The GPU options of the first session of this process (TF keeps those)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.first: Optional[SessionOptions] = None

    def check(self, options: SessionOptions, stacklevel: int = 4) -> None:
        with self._lock:
            if self.first is None:
                self.first = options
                return
            first = self.first
        for field in _GPU_DEFAULTS:
            asked = getattr(options, field)
            if asked is not None and asked != _effective(first, field):
                warnings.warn(GpuOptionsIgnoredWarning(
                    f"this session asks {field}={asked!r}, but the first session of this "
                    f"process set {_shown(first, field)}, and TensorFlow keeps the first session's "
                    "GPU options for the whole process; the new value is ignored. Give every "
                    "session the same GPU options, or run this one in its own process."),
                    stacklevel=stacklevel)

    def reset(self) -> None:
        """Forgets the first session (tests only: TensorFlow itself never forgets)."""
        with self._lock:
            self.first = None


process_gpu_options = _ProcessGpuOptions()

_session_class = None


def _compat_session_class():
    """A tf.compat.v1.Session subclass that turns placement failures into DeviceError."""
    global _session_class
    if _session_class is not None:
        return _session_class
    import tensorflow as tf

    class Session(tf.compat.v1.Session):
        """`tf.compat.v1.Session` whose placement errors name the devices it has."""

        def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
            try:
                return super().run(fetches, feed_dict, options, run_metadata)
            except tf.errors.InvalidArgumentError as error:
                translated = device_errors.translate(
                    error, [device.name for device in self.list_devices()])
                if translated is None:
                    raise
                raise translated from None

        def close(self):
            super().close()
            defaults = self.__dict__.get("_tf1compat_defaults")
            if defaults is not None:
                defaults.leave()

        def __exit__(self, exec_type, exec_value, exec_tb):
            try:
                return super().__exit__(exec_type, exec_value, exec_tb)
            finally:  # TF may have closed it in a thread of its own: leave the defaults here
                defaults = self.__dict__.get("_tf1compat_defaults")
                if defaults is not None:
                    defaults.leave()

    _session_class = Session
    return Session


def config_proto(options: Any = None, /, **keywords: Any):
    """Returns the `tf.compat.v1.ConfigProto` for options or keywords.

    >>> config_proto(growth=True).gpu_options.allow_growth
    True
    """
    return SessionOptions.coerce(options, **keywords).to_config_proto()


def session(options: Any = None, /, *, graph=None, target: str = "", **keywords: Any):
    """A `tf.compat.v1.Session` with TF1 options; its graph is the default until it closes.

    The options are checked at the call. Use it as TF1 code uses `tf.Session`:
    `with session(...) as sess:` (closed at the end of the block) or
    `sess = session(...)` (closed by `sess.close()`). From the call until the
    session is closed, its graph is this thread's default graph (graph mode) and
    it is the default session, so ops built after the call belong to it and
    `tensor.eval()` and `op.run()` work; after it is closed the defaults are
    what they were. Sessions leave the defaults last in, first out.

    Args:
      options: optional `SessionOptions`, `ConfigProto` (object, bytes or text).
      graph: the `tf.Graph` to run; a new one when omitted (ops built before the
        call are not in it: pass `graph=` to run those).
      target: the execution engine (e.g. a `grpc://` server target).
      **keywords: option keywords, e.g. `growth=True, cpus=2`
        (`tf1compat explain --table` lists them).

    Returns:
      A `tf.compat.v1.Session` (subclass), also a context manager.

    Raises:
      OptionError: a keyword or value is rejected (at the call).
      DeviceError: (from `run`) an op asks for a device the session lacks and
        soft placement is off.

    >>> import tensorflow as tf
    >>> with session(cpus=2) as sess:
    ...     total = tf.add(1, 2)
    ...     int(sess.run(total))
    3
    >>> sess = session()
    >>> int(sess.run(tf.constant(5) * 2))
    10
    >>> sess.close()
    """
    resolved = SessionOptions.coerce(options, **keywords)
    proto = resolved.to_config_proto()
    import tensorflow as tf

    graph = graph if graph is not None else tf.Graph()
    process_gpu_options.check(resolved, stacklevel=3)
    sess = _compat_session_class()(target=target, graph=graph, config=proto)
    try:
        sess._tf1compat_defaults = session_defaults.ThreadDefaults(sess)
    except BaseException:
        sess.close()
        raise
    return sess
