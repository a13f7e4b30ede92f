"""Turns TensorFlow's "no such device" errors into a DeviceError that lists the devices.

TF1 sessions say "Cannot assign a device for operation X: ... explicitly
assigned to /device:GPU:0 ..."; TF2 functions say "Unable to find any devices
for spec /device:GPU:0". Both worlds raise the same DeviceError instead,
naming the op (when TF does), the device asked for, and the devices that exist.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterable, Optional

from tf1compat.shared.errors import DeviceError
from tf1compat.shared.placement import short_device

_PATTERNS = (
    re.compile(r"Cannot assign a device for operation (?P<op>[^:\s]+):.*?"
               r"(?:explicitly assigned to|assigned to) (?P<device>\S+?)(?: but|\.|,|\s)", re.S),
    re.compile(r"Unable to find any devices for spec (?P<device>\S+)"),
    re.compile(r"Could not satisfy device specification '(?P<device>[^']+)'"),
)


def _device_error_match(error: BaseException) -> Optional[re.Match]:
    """The match of TF's device-assignment error in `error`'s text, or None."""
    text = str(error)
    return next(filter(None, (pattern.search(text) for pattern in _PATTERNS)), None)


def requested_device(error: BaseException) -> Optional[str]:
    """The device TF's device-assignment error names ('/device:CPU:2'), or None for any
    other error."""
    match = _device_error_match(error)
    return match.group("device") if match else None


def translate(error: Exception, devices: Iterable[str],
              fix: str = "create the session with soft_placement=True") -> Optional[DeviceError]:
    """A DeviceError for TF's device-assignment error, or None for any other error.

    Args:
      error: what TensorFlow raised.
      devices: names of the devices that exist (any spelling).
      fix: the first remedy to suggest, in the caller's world.
    """
    match = _device_error_match(error)
    if match is None:
        return None
    groups = match.groupdict()
    operation = f"operation {groups['op']!r}" if groups.get("op") else "an operation"
    existing = sorted({short_device(name) for name in devices})
    return DeviceError(
        f"{operation} asks for device {groups['device']!r}, which does not exist here; "
        f"the devices are {existing}. Fix: {fix} to fall back to an existing device, split "
        "the CPU with cpus=N, or change the tf.device(...) request")


TF2_FIX = "call modern.configure(soft_placement=True) (or tf.config.set_soft_device_placement(True))"


def tf2_checked(function: Callable, fix: str = TF2_FIX) -> Callable:
    """Wraps TF2 code so TF's missing-device error becomes a DeviceError listing devices."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        import tensorflow as tf

        try:
            return function(*args, **kwargs)
        except tf.errors.InvalidArgumentError as error:
            translated = translate(error, [d.name for d in tf.config.list_logical_devices()],
                                   fix)
            if translated is None:
                raise
            raise translated from None

    return call
