"""TensorFlow's own modules as TF 1.x code read them, for TF1 code tf1compat loads itself.

TF 2.21 keeps most `tensorflow.python.*` modules but moved names out of some
(`control_flow_ops.cond`, `while_loop` and `case` are in modules of their own); code written
for TF 1.x (tf_slim, the modules TF 1.15's contrib namespaces held) reads them where they
were. A view serves each such name from its TF 1.15 home, found the way `run` finds homes
for a script's private imports (`tf1compat.runner.private_paths.homes`: the name's public
TF1 name under tf.compat.v1, else the module TF 2.21 keeps it in).
"""

from __future__ import annotations

import functools
import importlib
import types
from typing import Any


class PrivateModuleView(types.ModuleType):
    """A `tensorflow.python.*` module as tf_slim (TF 1.x code) read it: a name TF 2.21 moved
    out (`control_flow_ops.cond`, `while_loop`, `case`, which TF 2.21 keeps in modules of their
    own) is served from its TF 1.15 home, as `run` serves TF1 code's private imports
    (`tf1compat.runner.private_paths.homes`: the name's public TF1 name under tf.compat.v1)."""

    def __init__(self, module: types.ModuleType):
        super().__init__(module.__name__, module.__doc__)
        self.__dict__["_module"] = module

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(self._module, name)
        except AttributeError:
            value = _tf1_home(self._module.__name__, name)
            if value is None:
                raise
            self.__dict__[name] = value
            return value


def _tf1_home(module: str, name: str) -> Any:
    from tf1compat.runner.private_paths import homes

    def walk(v1_name: str) -> Any:
        import tensorflow as tf

        value: Any = tf.compat.v1
        for part in v1_name.split("."):
            value = getattr(value, part)
        return value

    return homes.find(module, name, walk).value


@functools.lru_cache(maxsize=None)
def view_of(module: str) -> PrivateModuleView:
    """The view of TensorFlow's module `module` (ImportError when TF 2.21 has no such module)."""
    return PrivateModuleView(importlib.import_module(module))
