"""An Estimator's "no such device" failure, said as tf1compat says it for sessions.

With `allow_soft_placement=False`, an op (a `replicate_model_fn` tower, a
`tf.device` in the model_fn) asking for a device the session lacks makes
TensorFlow raise `InvalidArgumentError: Cannot assign a device ...` from deep
inside `train()`. `named_devices()` turns that into a `DeviceError` naming
the op, the device, the devices there are and the ways out.
"""

from __future__ import annotations

import contextlib
import re
from typing import Iterator

from tf1compat.shared import device_errors

_AVAILABLE = re.compile(r"available devices are \[([^\]]*)\]")
FIX = ("set allow_soft_placement=True in RunConfig(session_config=tf.ConfigProto(...)) (the "
       "Estimator default)")
_ESTIMATOR_NOTE = (" (in an Estimator the device comes from a tf.device in the model_fn or "
                   "replicate_model_fn(devices=[...]); session_config's device_count={'CPU': N} "
                   "makes N logical CPUs, and `tf1compat run --device-map 'gpu:*=cpu:*'` runs "
                   "GPU towers on them)")


def devices_listed(message: str) -> list[str]:
    """The devices TensorFlow's message says the session has."""
    match = _AVAILABLE.search(message)
    if not match:
        return []
    return [name.strip() for name in match.group(1).split(",") if name.strip()]


@contextlib.contextmanager
def named_devices() -> Iterator[None]:
    """Re-raises TensorFlow's device-assignment error as a DeviceError; other errors pass."""
    import tensorflow as tf

    try:
        yield
    except tf.errors.InvalidArgumentError as error:
        translated = device_errors.translate(error, devices_listed(str(error)), FIX)
        if translated is None:
            raise
        raise type(translated)(str(translated) + _ESTIMATOR_NOTE) from None
