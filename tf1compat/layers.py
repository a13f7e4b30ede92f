"""`tf1compat.layers`: TF1's `tf.layers` on TF 2.21, from legacy Keras (tf_keras).

Keras 3 has no `tf.layers`; TensorFlow routes `tf.compat.v1.layers` to
tf_keras only when `TF_USE_LEGACY_KERAS` is set before it is imported.
`tf1compat migrate` rewrites `tf.compat.v1.layers.dense(...)` to
`tf1compat.layers.dense(...)`, which works whatever that variable says.

>>> import tf1compat.layers
>>> callable(tf1compat.layers.dense)
True
"""

from __future__ import annotations

import importlib
from typing import Any

LEGACY_KERAS_HINT = ("pip install 'tf1compat[legacy]' (tf_keras, the version TF 2.21 takes); "
                     "Keras 3, the Keras of TF 2.21, has no TF1 layers")

_MODULE = "tf_keras.api._v1.keras.__internal__.legacy.layers"


def _legacy_layers():
    try:
        return importlib.import_module(_MODULE)
    except ImportError as error:
        if error.name is not None and not error.name.startswith("tf_keras"):
            raise
        raise ModuleNotFoundError(f"tf.layers needs legacy Keras: {LEGACY_KERAS_HINT}",
                                  name="tf_keras") from None


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = _legacy_layers()
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"tf.layers has no {name!r} (legacy Keras {_MODULE})") from None
