"""Keras 3 layers on chosen devices: their weights where they are built, their ops where they run.

What the seeds did, `with tf.device('/gpu:1'): model.add(Dense(...))`, does
not do that in Keras 3 (checked on TF 2.21 + Keras 3.15, logical CPUs):

- When the model has no input shape yet, layers build lazily at the first
  call, outside the `tf.device` block: the weights land on the default device.
- When the model has a `keras.Input`, `add` builds the layer at once, so the
  weights do land on the device; but the layer's ops run later, inside
  `fit`/`predict`, outside the block, so its MatMul runs on the default device
  and reads the weights across devices.

`on_device(layer, device)` fixes both: the layer builds (creates its
weights) and calls (runs its ops) under `tf.device(device)`, whenever that
happens. `place_layers(model, {...})` does it for several layers at once.

The backward pass is not covered: `fit` computes gradients with a
GradientTape outside any layer, and TF2 has no `colocate_gradients_with_ops`,
so gradient ops run on the default device (the tape reads the weights where
they are). Use `modern.towers` or a distribution strategy to place training.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping, Union

LayerKey = Union[int, str, Any]


def _under_device(method, device: str):
    import tensorflow as tf

    @functools.wraps(method)
    def placed(*args, **kwargs):
        with tf.device(device):
            return method(*args, **kwargs)

    placed._tf1compat_device = device
    return placed


def on_device(layer: Any, device: str) -> Any:
    """Builds and runs `layer` on `device`; returns the layer (for `model.add(on_device(...))`).

    Args:
      layer: a Keras 3 layer (or a model used as a layer) not built yet.
      device: a device string, e.g. '/gpu:1' or '/cpu:1'.

    Raises:
      ValueError: the layer is already built, so its weights already exist
        elsewhere; assign devices before the first build.
    """
    if getattr(layer, "built", False) and getattr(layer, "weights", None):
        where = sorted({weight.value.device for weight in layer.weights})
        raise ValueError(
            f"layer {layer.name!r} is already built, with its weights on {where}; received "
            f"device={device!r}. Assign devices before the layer is built: wrap it when you "
            "add it (model.add(on_device(layer, device))) or before the model's first call")
    current = getattr(layer.build, "_tf1compat_device", None)
    if current is not None and current != device:
        raise ValueError(f"layer {layer.name!r} is already assigned to {current!r}; "
                         f"received device={device!r}")
    if current is None:
        # object.__setattr__: Keras tracks attributes set on layers; these are methods.
        object.__setattr__(layer, "build", _under_device(layer.build, device))
        object.__setattr__(layer, "call", _under_device(layer.call, device))
    return layer


def _find_layer(model: Any, key: LayerKey) -> Any:
    layers = list(model.layers)
    if isinstance(key, int):
        if not -len(layers) <= key < len(layers):
            raise ValueError(f"layer index {key} is out of range; the model has "
                             f"{len(layers)} layers: {[layer.name for layer in layers]}")
        return layers[key]
    if isinstance(key, str):
        for layer in layers:
            if layer.name == key:
                return layer
        raise ValueError(f"no layer named {key!r}; the model's layers are "
                         f"{[layer.name for layer in layers]}")
    return key


def place_layers(model: Any, assignment: Mapping[LayerKey, str]) -> Any:
    """Assigns devices to a model's layers: {index, name or layer: device}.

    Returns:
      The model, for chaining.

    >>> # place_layers(model, {0: '/gpu:0', 'head': '/gpu:1'})
    """
    for key, device in assignment.items():
        on_device(_find_layer(model, key), device)
    return model


def weight_devices(model: Any) -> dict[str, str]:
    """{weight path: short device} of a built model's weights."""
    from tf1compat.shared.placement import short_device

    return {weight.path: short_device(weight.value.device) for weight in model.weights}
