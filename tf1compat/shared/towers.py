"""What the towers of both worlds are built from: one copy per device, a sum on one device.

`tf.device` and `tf.name_scope` mean the same inside a TF1 graph, a
`tf.function` and eager code, so `tf1compat.towers` and `modern.towers` share
these, and the arithmetic of averaging and splitting; each side adds what differs (sessions and TF1 optimizers, or
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


def mean_of_present(gradients: Sequence[Any]) -> Any:
    """The mean of the towers' gradients of one variable, those that are None left out (a
    tower whose loss does not read it); None when every tower's is None."""
    present = [gradient for gradient in gradients if gradient is not None]
    if not present:
        return None
    return _tf().math.truediv(_tf().add_n(present), float(len(present)))


def split_batch(tensor: Any, parts: int) -> list[Any]:
    """Splits a batch into `parts` equal shards along axis 0 (the batch must divide)."""
    return _tf().split(tensor, parts, axis=0)
