"""What the towers of both worlds are built from: one copy per device, a sum on one device.

`tf.device` and `tf.name_scope` mean the same inside a TF1 graph, a
`tf.function` and eager code, so `tf1compat.towers` and `modern.towers` share
these two; each side adds what differs (sessions and TF1 optimizers, or
`tf.function` and Keras optimizers).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence
from tf1compat.shared.lazy_tf import tensorflow as _tf


def replicate(build: Callable[[int, str], Any], devices: Sequence[str],
              scope: str = "tower") -> list[Any]:
    """Calls `build(index, device)` once per device, under `tf.device(device)`.

    Each copy gets the name scope `{scope}_{index}`, so its ops are easy to
    find in the placement data.

    Returns:
      What each call returned, in device order.
    """
    tf = _tf()
    if not devices:
        raise ValueError("replicate needs at least one device; received devices=[]")
    outputs = []
    for index, device in enumerate(devices):
        with tf.device(device), tf.name_scope(f"{scope}_{index}"):
            outputs.append(build(index, device))
    return outputs


def sum_on(tensors: Sequence[Any], device: str = "/cpu:0", name: str = "sum") -> Any:
    """`tf.add_n(tensors)` placed on `device` (the CPU, in the seed)."""
    tf = _tf()
    with tf.device(device):
        return tf.add_n(list(tensors), name=name)
