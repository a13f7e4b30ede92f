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

from tf1compat.shared.module_view import TARGET, ModuleView


class PrivateModuleView(ModuleView):
    """A `tensorflow.python.*` module as tf_slim (TF 1.x code) read it: a name TF 2.21 moved
    out (`control_flow_ops.cond`, `while_loop`, `case`, which TF 2.21 keeps in modules of their
    own) is served from its TF 1.15 home, as `run` serves TF1 code's private imports
    (`tf1compat.runner.private_paths.homes`: the name's public TF1 name under tf.compat.v1)."""

    KEEPS = True  # a TF 1.15 home found once is the home; the module's own names are read live

    def __init__(self, module: types.ModuleType):
        super().__init__(module.__name__, module)

    def _view_attribute(self, name: str) -> Any:
        if hasattr(self._view_target(), name):
            return TARGET
        value = _tf1_home(self.__name__, name)
        return TARGET if value is None else value  # TARGET: the module's own AttributeError


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
class MovedModuleView(ModuleView):
    """A TF 1.15 module TF 2.21 moved whole (`training.tracking.util` is `checkpoint.
    checkpoint`): its names read from the modules that hold them now, in the declared order
    (`runner.private_paths.moved`); a package whose modules all moved is a namespace of their
    views (`training.tracking`)."""

    def __init__(self, name: str, targets: tuple[str, ...]):
        super().__init__(name, importlib.import_module(targets[0]) if targets else None)
        self._view_set("_moved_to", targets)
        self.__path__ = []

    def _view_attribute(self, name: str) -> Any:
        from tf1compat.runner.private_paths import moved

        submodule = f"{self.__name__}.{name}"
        if moved.moved_to(submodule) is not None:
            return view_of(submodule)
        for target in self._moved_to[1:]:
            holder = importlib.import_module(target)
            if hasattr(holder, name):
                return getattr(holder, name)
        return TARGET


def view_of(module: str) -> ModuleView:
    """The view of TensorFlow's module `module` (ImportError when TF 2.21 has no such module,
    at that path or where it moved)."""
    from tf1compat.runner.private_paths import moved

    if moved.moved_to(module) is not None or moved.is_moved_package(module):
        return _moved_view(module)
    return PrivateModuleView(importlib.import_module(module))


@functools.lru_cache(maxsize=None)
def _moved_view(module: str) -> MovedModuleView:
    from tf1compat.runner.private_paths import moved

    return MovedModuleView(module, moved.moved_to(module) or ())
