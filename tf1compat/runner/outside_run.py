"""`tf1compat.tf1_module(name)`: TF 1.15's `tensorflow.python.*` module as `tf1compat run`
serves it, for a program not under `run`: what `migrate` writes for a module TF 2.21 lacks
(`profiler = tf1compat.tf1_module("tensorflow.python.eager.profiler")`) and for TF 1.15's
`tensorflow.python.estimator` modules."""

from __future__ import annotations

import types

from tf1compat.runner import shim
from tf1compat.runner.usage import usage
from tf1compat.runner.private_modules import PrivateImportError, PrivateTree

_outside_run: list[PrivateTree] = []  # the views of a program not under `run`, made once


def tf1_module(name: str) -> types.ModuleType:
    """TF 1.15's module `name` (`tensorflow.python.eager.profiler`) as `tf1compat run` serves
    it, for a program not under `run` (what `migrate` writes for a module TF 2.21 lacks): the
    names it serves resolve, the others fail at their use, naming what to do instead.

    Raises:
      PrivateImportError: neither TF 1.15's listing nor TF 2.21 has the module.
    """
    if not _outside_run:
        import importlib.util

        import tensorflow as tf

        legacy_keras = importlib.util.find_spec("tf_keras") is not None
        root = shim.TF1Module(tf.compat.v1, "", legacy_keras=legacy_keras)
        _outside_run.append(PrivateTree(root, usage))
    module = _outside_run[0].module(name)
    if module is None:
        raise PrivateImportError(f"tf1compat.tf1_module({name!r}): neither TF 1.15's listing "
                                 "of TensorFlow's modules (tf1compat/runner/private_paths) nor "
                                 "TF 2.21 has that module", name=name)
    return module
