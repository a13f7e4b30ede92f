"""`tf1compat.session(...)`: a TF1 session with ConfigProto options, on TF 2.21.

Inside the block the session's graph is the default graph, so ops built there
belong to the session and run in graph mode, as in TF1 code; nothing global
is changed once the block ends (no `disable_v2_behavior()`).

TensorFlow fixes a process's GPU options (growth, the memory limit, visible
and virtual devices, the allocator) when the first session creates the GPU devices; a later
session's different values are silently ignored by TensorFlow. This module
records what the first session asked for and warns when a later one asks for
something else.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from typing import Any, Iterator, Optional

from tf1compat import device_errors
from tf1compat.option_table import OPTION_SPECS
from tf1compat.options import SessionOptions

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

    def check(self, options: SessionOptions) -> None:
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
                    stacklevel=4)

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

    _session_class = Session
    return Session


def config_proto(options: Any = None, /, **keywords: Any):
    """Returns the `tf.compat.v1.ConfigProto` for options or keywords.

    >>> config_proto(growth=True).gpu_options.allow_growth
    True
    """
    return SessionOptions.coerce(options, **keywords).to_config_proto()


@contextlib.contextmanager
def session(options: Any = None, /, *, graph=None, target: str = "",
            **keywords: Any) -> Iterator[Any]:
    """A `tf.compat.v1.Session` with TF1 options, its graph the default inside the block.

    Args:
      options: optional `SessionOptions`, `ConfigProto` (object, bytes or text).
      graph: the `tf.Graph` to run; a new one when omitted.
      target: the execution engine (e.g. a `grpc://` server target).
      **keywords: option keywords, e.g. `growth=True, cpus=2`
        (`tf1compat explain --table` lists them).

    Yields:
      A `tf.compat.v1.Session` (subclass) that is also the default session, so
      `tensor.eval()` and `op.run()` work as in TF1.

    Raises:
      OptionError: a keyword or value is rejected.
      DeviceError: (from `run`) an op asks for a device the session lacks and
        soft placement is off.

    >>> import tensorflow as tf
    >>> with session(cpus=2) as sess:
    ...     total = tf.add(1, 2)
    ...     int(sess.run(total))
    3
    """
    resolved = SessionOptions.coerce(options, **keywords)
    proto = resolved.to_config_proto()
    import tensorflow as tf

    graph = graph if graph is not None else tf.Graph()
    process_gpu_options.check(resolved)
    with graph.as_default():
        sess = _compat_session_class()(target=target, graph=graph, config=proto)
        try:
            with sess.as_default():
                yield sess
        finally:
            sess.close()
