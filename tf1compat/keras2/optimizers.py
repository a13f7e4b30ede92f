"""Keras 2's `keras.optimizers`: tf_keras's legacy optimizers, which take Keras 2's arguments.

Keras 2's optimizers took `lr=` and `decay=`; tf_keras's default optimizers are Keras 3's
kind and refuse both, its legacy ones (its TF1 view's) take them. Keras 2 also had
lower-case aliases (`keras.optimizers.adam`), and `get` / `serialize` / `deserialize` that
make legacy optimizers.
"""

from __future__ import annotations

import importlib
from typing import Any

from tf1compat.keras2 import V1_KERAS

_ALIASES = {"sgd": "SGD", "rmsprop": "RMSprop", "adagrad": "Adagrad", "adadelta": "Adadelta",
            "adam": "Adam", "adamax": "Adamax", "nadam": "Nadam"}


def _optimizers():
    return importlib.import_module(V1_KERAS + ".optimizers")


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_optimizers(), _ALIASES.get(name, name))
    except AttributeError:
        raise AttributeError(f"module 'keras.optimizers' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(dir(_optimizers())) | set(_ALIASES))
