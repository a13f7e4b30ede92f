"""The smaller Keras 2 names tf_keras renamed or dropped, by the Keras 2 module that had them."""

from __future__ import annotations

import functools
import importlib
import types

from tf1compat.keras2 import V1_KERAS


def _v1(module: str = ""):
    return importlib.import_module(V1_KERAS + (f".{module}" if module else ""))


def _namespace(name: str, **values) -> types.SimpleNamespace:
    space = types.SimpleNamespace(**values)
    space.__name__ = name
    return space


@functools.lru_cache(maxsize=None)
def top() -> types.SimpleNamespace:
    """`keras.__version__`: tf_keras's version (a Keras 2 version: scripts compare it to 2.x)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return _namespace("keras", __version__=version("tf_keras"))
    except PackageNotFoundError:
        return _namespace("keras", __version__="2")


@functools.lru_cache(maxsize=None)
def layers() -> types.SimpleNamespace:
    """Keras 2.3's recurrent layers: tf_keras's TF1 LSTM and GRU default to
    recurrent_activation='hard_sigmoid' (Keras <= 2.2's), Keras 2.3's to 'sigmoid'."""
    module = _v1("layers")

    class LSTM(module.LSTM):
        __doc__ = module.LSTM.__doc__

        def __init__(self, units, recurrent_activation="sigmoid", **kwargs):
            super().__init__(units, recurrent_activation=recurrent_activation, **kwargs)

    class GRU(module.GRU):
        __doc__ = module.GRU.__doc__

        def __init__(self, units, recurrent_activation="sigmoid", **kwargs):
            super().__init__(units, recurrent_activation=recurrent_activation, **kwargs)

    for cls in (LSTM, GRU):
        cls.__module__ = "keras.layers"
    return _namespace("keras.layers", LSTM=LSTM, GRU=GRU)


def relu6(x):
    """MobileNet's activation in Keras 2.0-2.1 (`keras.applications.mobilenet.relu6`)."""
    return _v1("backend").relu(x, max_value=6)


@functools.lru_cache(maxsize=None)
def mobilenet() -> types.SimpleNamespace:
    """What Keras 2.0-2.1's `keras.applications.mobilenet` defined beside the model."""
    return _namespace("keras.applications.mobilenet", relu6=relu6,
                      DepthwiseConv2D=_v1("layers").DepthwiseConv2D)
