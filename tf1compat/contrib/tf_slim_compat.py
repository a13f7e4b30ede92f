"""Loads the tf_slim library (contrib.slim's own code, 1.1.0 from 2020) fit for TF 2.21.

What breaks on TF 2.14+ is two names: tf_slim's modules read
`tensorflow.python.framework.ops.Tensor` and `ops.IndexedSlices`, which TF
moved out of that module (they are `tf.Tensor` and `tf.IndexedSlices`). Each
tf_slim module that reads them gets its own view of `ops` with both
restored; TensorFlow's module itself is left as
it is, so nothing outside tf_slim sees a change. tf_slim's batch_norm reads
`BatchNormalization` from a module whose lazy path TF 2.21 points to a place
tf_keras no longer has: it gets a view of that module that finds the class.
tf_slim's arg_scope is made one with tf1compat's (`tf_slim_arg_scope`). Every other
`tensorflow.python.*` module a tf_slim module holds gets a view that serves the names TF 2.21
moved out of it from their TF 1.15 homes (`control_flow_ops.cond`, `while_loop` and `case`,
which tf_slim's metrics, metric-learning losses and TFExample image decoder call).
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from typing import Any, Callable

from tf1compat.contrib.private_views import view_of
from tf1compat.contrib.tf_slim_arg_scope import share as share_arg_scope
from tf1compat.shared import patches
from tf1compat.shared.module_view import TARGET, ModuleView

# tf_slim's modules that read those names (found by reading tf_slim 1.1.0).
_READERS = ("tf_slim.learning", "tf_slim.layers.optimizers", "tf_slim.layers.utils",
            "tf_slim.layers.rev_block_lib", "tf_slim.training.training")
_MOVED = ("Tensor", "IndexedSlices")
# tf_slim's modules its package does not import on its own: given their views up front too.
_LAZY_MODULES = ("tf_slim.data.tfexample_decoder", "tf_slim.metrics.metric_ops",
                 "tf_slim.losses.metric_learning")


class _OpsView(ModuleView):
    """`tensorflow.python.framework.ops` as tf_slim expects it: with `Tensor`, `IndexedSlices`."""

    def __init__(self, ops: types.ModuleType, tf: types.ModuleType):
        super().__init__(ops.__name__, ops)
        for name in _MOVED:
            self._view_set(name, getattr(ops, name, None) or getattr(tf, name))


class _NormalizationView(ModuleView):
    """`tensorflow.python.layers.normalization` as tf_slim's batch_norm expects it.

    TF 2.21's module forwards `BatchNormalization` to `tf_keras.legacy_tf_layers`, a path
    tf_keras 2.21 keeps under `tf_keras.src`; the class there is TF 1.x's `tf.layers` one.
    """

    def __init__(self, module: types.ModuleType):
        super().__init__(module.__name__, module)

    def _view_attribute(self, name: str) -> Any:
        if name in ("BatchNormalization", "BatchNorm"):
            try:
                legacy = importlib.import_module("tf_keras.src.legacy_tf_layers.normalization")
            except ImportError:
                from tf1compat.layers import LEGACY_KERAS_HINT

                raise ModuleNotFoundError(f"tf_slim's batch_norm (slim.nets' batch-normalized "
                                          f"nets) needs legacy Keras: {LEGACY_KERAS_HINT}",
                                          name="tf_keras") from None
            return legacy.BatchNormalization
        return TARGET


def _give_private_views(tf_slim_modules) -> tuple[None, Callable[[], None]]:
    """Each tf_slim module's `tensorflow.python.*` modules become `PrivateModuleView`s (the
    registry's "tf_slim.private-module-views")."""
    # plain modules only: the views of the other changes (ops, normalization) stay as they are
    return None, patches.set_attributes([
        (module, attribute, view_of(value.__name__))
        for module in tf_slim_modules for attribute, value in list(vars(module).items())
        if type(value) is types.ModuleType and value.__name__.startswith("tensorflow.python.")])


@functools.lru_cache(maxsize=None)
def load() -> types.ModuleType:
    """`tf_slim`, imported once, its readers of the moved names given a view that has them.

    Raises:
      ImportError: tf_slim is not installed (`pip install 'tf1compat[slim]'`).
    """
    import tensorflow as tf
    from tensorflow.python.framework import ops

    tf_slim = importlib.import_module("tf_slim")
    with patches.all_or_nothing():
        share_arg_scope(importlib.import_module("tf_slim.ops.arg_scope"))
        layers = importlib.import_module("tf_slim.layers.layers")
        patches.replace_attribute("tf_slim.normalization-view", layers, "normalization_layers",
                                  _NormalizationView)
        if not all(hasattr(ops, name) for name in _MOVED):
            patches.apply("tf_slim.ops-views", lambda: _give_ops_view(ops, _OpsView(ops, tf)))
        for name in _LAZY_MODULES:  # imported by tf_slim's own __init__ only on first use
            importlib.import_module(name)
        patches.apply("tf_slim.private-module-views", lambda: _give_private_views(
            [module for name, module in list(sys.modules.items())
             if (name == "tf_slim" or name.startswith("tf_slim."))
             and isinstance(module, types.ModuleType)]))
    return tf_slim


def _give_ops_view(ops: types.ModuleType, view: Any) -> tuple[None, Callable[[], None]]:
    """tf_slim's readers of TF's `ops` module read `view` instead."""
    readers = [sys.modules.get(name) or importlib.import_module(name) for name in _READERS]
    return None, patches.set_attributes([(module, "ops", view) for module in readers
                            if getattr(module, "ops", None) is ops])
