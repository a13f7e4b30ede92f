"""Keras 2's `keras.backend.tensorflow_backend`: its session functions and the names tf_keras dropped.

In Keras 2 the backend module *was* `keras.backend.tensorflow_backend`; tf_keras keeps
`get_session` / `set_session` in its TF1 view only, and lost `image_dim_ordering`,
`control_flow_ops` and the GPU listing's Keras 2.3 form. The session functions are
tf_keras's own: a session given to `set_session` is the one Keras uses, and one Keras makes
for itself (no session set) is a `tf.compat.v1.Session` like any other.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Optional

from tf1compat.keras2 import V1_KERAS
from tf1compat.shared.module_view import ModuleView

# Told of every session given to `set_session` (`tf1compat run` notes it in its report).
session_listeners: list[Callable[[Any], None]] = []
# The GPUs `_get_available_gpus` lists, where a run provides them (`--device-map` sends GPUs
# to CPUs: the script still finds its GPUs). None: the session's own devices.
gpu_listing: Optional[Callable[[], list[str]]] = None


def _backend():
    return importlib.import_module(V1_KERAS + ".backend")


def set_session(session) -> None:
    """Keras uses `session` from now on (Keras 2's `K.set_session`)."""
    _backend().set_session(session)
    for listener in list(session_listeners):
        listener(session)


def get_session():
    """The session Keras uses; one with Keras's default config when none was set."""
    return _backend().get_session()


def clear_session() -> None:
    """A new graph and no session, as Keras 2's `K.clear_session()`."""
    _backend().clear_session()


def _get_available_gpus() -> list[str]:
    """The GPUs' full names as Keras 2.3 listed them ('/job:localhost/replica:0/task:0/device:GPU:0')."""
    if gpu_listing is not None:
        return gpu_listing()
    return [device.name for device in get_session().list_devices()
            if device.device_type == "GPU"]


def image_dim_ordering() -> str:
    """Keras 1's name of the image layout: 'tf' (channels last) or 'th' (channels first)."""
    return "tf" if _backend().image_data_format() == "channels_last" else "th"


def set_image_dim_ordering(dim_ordering: str) -> None:
    formats = {"tf": "channels_last", "th": "channels_first"}
    if dim_ordering not in formats:
        raise ValueError(f"set_image_dim_ordering: dim_ordering={dim_ordering!r}; accepted: "
                         "'tf' (channels last) or 'th' (channels first)")
    _backend().set_image_data_format(formats[dim_ordering])


class _ControlFlowOps(ModuleView):
    """`K.control_flow_ops`: the TF1 control-flow functions Keras 2's backend imported."""

    _NAMES = ("while_loop", "cond", "case", "group", "tuple", "no_op")

    def _view_attribute(self, name: str) -> Any:
        if name not in self._NAMES:
            raise AttributeError(f"keras.backend.control_flow_ops.{name} is not served; served: "
                                 f"{', '.join(self._NAMES)} (tf.compat.v1's)")
        import tensorflow as tf

        return getattr(tf.compat.v1, name)

    def _view_names(self) -> tuple[str, ...]:
        return self._NAMES


control_flow_ops = _ControlFlowOps("keras.backend.control_flow_ops")


def __getattr__(name: str) -> Any:
    """Every other Keras 2 backend name is tf_keras's (`K.floatx`, `K.function`, ...)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_backend(), name)
    except AttributeError:
        raise AttributeError(f"module 'keras.backend' has no attribute {name!r}") from None
