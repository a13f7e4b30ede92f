"""Loads the tf_slim library (contrib.slim's own code, 1.1.0 from 2020) fit for TF 2.21.

What breaks on TF 2.14+ is two names: tf_slim's modules read
`tensorflow.python.framework.ops.Tensor` and `ops.IndexedSlices`, which TF
moved out of that module (they are `tf.Tensor` and `tf.IndexedSlices`). Each
tf_slim module that reads them gets its own view of `ops` with both
restored; TensorFlow's module itself is left as
it is, so nothing outside tf_slim sees a change.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from typing import Any

# tf_slim's modules that read those names (found by reading tf_slim 1.1.0).
_READERS = ("tf_slim.learning", "tf_slim.layers.optimizers", "tf_slim.layers.utils",
            "tf_slim.layers.rev_block_lib", "tf_slim.training.training")
_MOVED = ("Tensor", "IndexedSlices")


class _OpsView(types.ModuleType):
    """`tensorflow.python.framework.ops` as tf_slim expects it: with `Tensor`, `IndexedSlices`."""

    def __init__(self, ops: types.ModuleType, tf: types.ModuleType):
        super().__init__(ops.__name__, ops.__doc__)
        self.__dict__["_ops"] = ops
        for name in _MOVED:
            self.__dict__[name] = getattr(ops, name, None) or getattr(tf, name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ops, name)


@functools.lru_cache(maxsize=None)
def load() -> types.ModuleType:
    """`tf_slim`, imported once, its readers of the moved names given a view that has them.

    Raises:
      ImportError: tf_slim is not installed (`pip install tf-slim`).
    """
    import tensorflow as tf
    from tensorflow.python.framework import ops

    tf_slim = importlib.import_module("tf_slim")
    if not all(hasattr(ops, name) for name in _MOVED):
        view = _OpsView(ops, tf)
        for name in _READERS:
            module = sys.modules.get(name) or importlib.import_module(name)
            if getattr(module, "ops", None) is ops:
                module.ops = view
    return tf_slim
