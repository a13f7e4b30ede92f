"""Keras 2's `keras.layers.merge`: the merge layers, their functions, and Keras 1's `merge(...)`.

tf_keras has the layers and functions (`Concatenate`, `concatenate`, `add`, ...) under
`layers`, but no `layers.merge` module. Keras 1 code calls `merge([a, b], mode='concat')`,
a function Keras 2.0-2.1 still had: each mode is the Keras 2 layer that does the same
(`'cos'` is `Dot(normalize=True)`). The served `keras.layers.merge` is both the module
and that function (`tf1compat.runner.keras2`).
"""

from __future__ import annotations

import importlib
from typing import Any

from tf1compat.keras2 import V1_KERAS

LAYERS = ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot")
FUNCTIONS = ("add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot")
MODES = ("sum", "mul", "ave", "max", "concat", "dot", "cos")


def _layers():
    return importlib.import_module(V1_KERAS + ".layers")


def merge(inputs, mode: str = "sum", concat_axis: int = -1, dot_axes: Any = -1,
          output_shape=None, output_mask=None, arguments=None, node_indices=None,
          tensor_indices=None, name=None):
    """Keras 1's `merge`: the Keras 2 merge layer of `mode` applied to `inputs`."""
    layers = _layers()
    if callable(mode):
        raise ValueError("merge(mode=<function>) is Keras 1's Lambda merge; write "
                         "keras.layers.Lambda(function)(inputs) instead")
    kinds = {"sum": layers.Add, "mul": layers.Multiply, "ave": layers.Average,
             "max": layers.Maximum}
    if mode in kinds:
        layer = kinds[mode](name=name)
    elif mode == "concat":
        layer = layers.Concatenate(axis=concat_axis, name=name)
    elif mode in ("dot", "cos"):
        layer = layers.Dot(axes=dot_axes, normalize=mode == "cos", name=name)
    else:
        raise ValueError(f"merge: mode={mode!r}; accepted: {', '.join(map(repr, MODES))}")
    return layer(inputs)


def __getattr__(name: str) -> Any:
    if name in LAYERS or name in FUNCTIONS:
        return getattr(_layers(), name)
    raise AttributeError(f"module 'keras.layers.merge' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*LAYERS, *FUNCTIONS, "merge"])
