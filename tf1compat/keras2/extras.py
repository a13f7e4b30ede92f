"""The smaller Keras 2 names tf_keras renamed or dropped, by the Keras 2 module that had them."""

from __future__ import annotations

import importlib
import types

from tf1compat.keras2 import V1_KERAS


def _v1(module: str = ""):
    return importlib.import_module(V1_KERAS + (f".{module}" if module else ""))


def _namespace(name: str, **values) -> types.SimpleNamespace:
    space = types.SimpleNamespace(**values)
    space.__name__ = name
    return space


def optimizers() -> types.SimpleNamespace:
    """Keras 2's lower-case aliases (`keras.optimizers.adam`), the classes themselves."""
    module = _v1("optimizers")
    return _namespace("keras.optimizers", sgd=module.SGD, rmsprop=module.RMSprop,
                      adagrad=module.Adagrad, adadelta=module.Adadelta, adam=module.Adam,
                      adamax=module.Adamax, nadam=module.Nadam)


def relu6(x):
    """MobileNet's activation in Keras 2.0-2.1 (`keras.applications.mobilenet.relu6`)."""
    return _v1("backend").relu(x, max_value=6)


def mobilenet() -> types.SimpleNamespace:
    """What Keras 2.0-2.1's `keras.applications.mobilenet` defined beside the model."""
    return _namespace("keras.applications.mobilenet", relu6=relu6,
                      DepthwiseConv2D=_v1("layers").DepthwiseConv2D)
