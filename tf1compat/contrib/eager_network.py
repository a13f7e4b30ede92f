"""`tf.contrib.eager.Network` and `Sequential`: TF1's container of `tf.layers` layers.

TF 1.15 already deprecated them for `tf.keras.Model`. They are served on the
`tf.layers` base class of legacy Keras (tf_keras), the one TF1's
`tf.layers.Dense` and friends derive from under `tf1compat`: a Network is a
layer whose `call` uses the layers it `track_layer`s, and whose weights are
theirs, in the order they were tracked. Network-specific checkpointing
(`save_network_checkpoint`, `restore_network_checkpoint`) is not served:
`tf.train.Checkpoint(model=network)` saves and restores the same variables.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import tf1compat.layers

_Layer: Any = tf1compat.layers.Layer  # legacy Keras's tf.layers base (tf_keras)

__all__ = ["Network", "Sequential"]


def _takes_training(fn: Callable) -> bool:
    import inspect

    try:
        return "training" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class Network(_Layer):
    """A `tf.layers.Layer` made of the layers passed to `track_layer` (deprecated in TF 1.15)."""

    def __init__(self, name: Optional[str] = None):
        super().__init__(name=name)
        self._tracked: list = []

    def track_layer(self, layer):
        """Tracks `layer` (a `tf.layers.Layer`) in this Network; returns it."""
        if not hasattr(self, "_tracked"):
            raise RuntimeError("Need to call Network.__init__ before adding layers")
        if not isinstance(layer, _Layer):
            raise TypeError(f"Network.track_layer() passed type {type(layer)}, not a "
                            "tf.layers.Layer")
        if all(layer is not known for known in self._tracked):
            self._tracked.append(layer)
        return layer

    def get_layer(self, name: Optional[str] = None, index: Optional[int] = None):
        """A tracked layer, by name or by the order it was tracked in."""
        if index is not None:
            if name is not None:
                raise ValueError("Exactly one of 'index' or 'name' must be provided")
            if len(self._tracked) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(self._tracked)} layers.")
            return self._tracked[index]
        if not name:
            raise ValueError("Provide either a layer name or layer index.")
        for layer in self._tracked:
            if layer.name == name:
                return layer
        raise ValueError("No such layer: " + name)

    @property
    def layers(self) -> list:
        return list(self._tracked)

    @property
    def weights(self) -> list:
        return [weight for layer in self._tracked for weight in layer.weights]

    @property
    def trainable_weights(self) -> list:
        return [weight for layer in self._tracked for weight in layer.trainable_weights]

    @property
    def non_trainable_weights(self) -> list:
        return [weight for layer in self._tracked for weight in layer.non_trainable_weights]

    @property
    def variables(self) -> list:
        return self.weights

    @property
    def trainable_variables(self) -> list:
        return self.trainable_weights

    @property
    def losses(self) -> list:
        return [loss for layer in self._tracked for loss in layer.losses]

    def add_variable(self, *args, **kwargs):
        raise RuntimeError("add_variable is not supported in tf.contrib.eager.Network (nor was "
                           "it in TF 1.15): create variables in a tracked layer")

    def add_loss(self, *args, **kwargs):
        raise RuntimeError("add_loss is not supported in tf.contrib.eager.Network (nor was it "
                           "in TF 1.15): add losses in a tracked layer")


class Sequential(Network):
    """A Network calling its layers (or plain callables) one after the other."""

    def __init__(self, layers_funcs=None, name: Optional[str] = None):
        super().__init__(name=name)
        self._layers_funcs: list = []
        for layer_func in layers_funcs or ():
            self.add(layer_func)

    def add(self, layer_func) -> None:
        if isinstance(layer_func, _Layer):
            self.track_layer(layer_func)
            takes_training = _takes_training(layer_func.call)
        elif callable(layer_func):
            takes_training = _takes_training(layer_func)
        else:
            raise TypeError("Sequential.add() takes only tf.layers.Layer objects or callables; "
                            f"not '{layer_func}' of type '{type(layer_func)}'.")
        self._layers_funcs.append((takes_training, layer_func))

    def call(self, inputs, training=None):
        for takes_training, layer_func in self._layers_funcs:
            inputs = layer_func(inputs, training=training) if takes_training and \
                training is not None else layer_func(inputs)
        return inputs
