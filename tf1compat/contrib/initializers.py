"""`tf.contrib.layers`' initializers: `variance_scaling_initializer` and `xavier_initializer`.

Contract (TF 1.x): with fan_in = shape[-2] and fan_out = shape[-1], both
multiplied by every leading dimension (the receptive field of a conv
kernel), n is fan_in, fan_out or their mean (mode FAN_IN / FAN_OUT /
FAN_AVG). Uniform: U(-sqrt(3 * factor / n), +sqrt(3 * factor / n)); normal:
a truncated normal with stddev sqrt(1.3 * factor / n). `xavier_initializer`
is factor 1.0, FAN_AVG (uniform by default). A rank-1 shape uses
fan_in = fan_out = shape[0]; a scalar uses 1.
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import tensorflow as tf

_MODES = ("FAN_IN", "FAN_OUT", "FAN_AVG")


def fans(shape) -> tuple[float, float]:
    """(fan_in, fan_out) of a variable shape, as TF 1.x's contrib initializers count them.

    >>> fans([3, 3, 8, 16])
    (72.0, 144.0)
    """
    shape = [int(dim) for dim in shape]
    if not shape:
        return 1.0, 1.0
    fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
    fan_out = float(shape[-1])
    for dim in shape[:-2]:
        fan_in *= dim
        fan_out *= dim
    return fan_in, fan_out


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN",
                                 uniform: bool = False, seed: Optional[int] = None,
                                 dtype=tf.float32) -> Callable:
    """An initializer `init(shape, dtype=dtype, partition_info=None)` keeping variance steady.

    Raises:
      TypeError: a dtype that is not floating point, or a mode not in FAN_IN/FAN_OUT/FAN_AVG.
    """
    default_dtype = tf.as_dtype(dtype or tf.float32)
    if not default_dtype.is_floating:
        raise TypeError(f"Cannot create initializer for non-floating point type; received "
                        f"dtype={default_dtype.name}")
    if mode not in _MODES:
        raise TypeError(f"Unknown mode {mode!r}; accepted: {', '.join(_MODES)}")

    def _initializer(shape, dtype=default_dtype, partition_info=None):
        dtype = tf.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError(f"Cannot create initializer for non-floating point type; "
                            f"received dtype={dtype.name}")
        fan_in, fan_out = fans(shape)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return tf.compat.v1.random_uniform(shape, -limit, limit, dtype, seed=seed)
        stddev = math.sqrt(1.3 * factor / n)
        return tf.compat.v1.truncated_normal(shape, 0.0, stddev, dtype, seed=seed)

    return _initializer


def xavier_initializer(uniform: bool = True, seed: Optional[int] = None,
                       dtype=tf.float32) -> Callable:
    """Glorot/Xavier: `variance_scaling_initializer(1.0, 'FAN_AVG', uniform)`."""
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed,
                                        dtype=dtype)


xavier_initializer_conv2d = xavier_initializer
