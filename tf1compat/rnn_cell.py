"""`tf1compat.rnn_cell`: TF1's `tf.nn.rnn_cell` cells on TF 2.21, from legacy Keras (tf_keras).

Keras 3 has no TF1 cells: `tf.compat.v1.nn.rnn_cell.LSTMCell` raises
"`LSTMCell` is not available with Keras 3" unless TF_USE_LEGACY_KERAS is set
before TensorFlow is imported. This module takes the same classes from
tf_keras directly (as `tf1compat.layers` does for `tf.layers`), so
`tf1compat migrate` can rewrite `tf.compat.v1.nn.rnn_cell.X` to
`tf1compat.rnn_cell.X`, and `tf.contrib.rnn` cells resolve here.
"""

from __future__ import annotations

import importlib
from typing import Any

from tf1compat.layers import LEGACY_KERAS_HINT

_MODULE = "tf_keras.api._v1.keras.__internal__.legacy.rnn_cell"


def legacy_cells():
    """tf_keras' TF1 cell module; says what to install when tf_keras is missing."""
    try:
        return importlib.import_module(_MODULE)
    except ImportError as error:
        if error.name is not None and not error.name.startswith("tf_keras"):
            raise
        raise ModuleNotFoundError(f"TF1 RNN cells (tf.nn.rnn_cell, tf.contrib.rnn) need legacy "
                                  f"Keras: {LEGACY_KERAS_HINT}", name="tf_keras") from None


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(legacy_cells(), name)
    except AttributeError:
        raise AttributeError(f"tf.nn.rnn_cell has no {name!r} (legacy Keras {_MODULE})") from None
