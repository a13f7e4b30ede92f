"""What scripts read as a TF1 namespace's `__dict__` under `run` (`vars(tf.logging)`,
`tf.logging.__dict__["INFO"]`, `from tensorflow import *`)."""

from __future__ import annotations

import types
from typing import Any

# The module's own attribute dictionary: the view keeps its state there, apart from the
# namespace `__dict__` it shows to scripts.
from tf1compat.shared.module_view import module_dict


class NamespaceDict(dict):
    """A TF1 namespace's names (those of the module it views), each read through the view."""

    def __init__(self, view: types.ModuleType):
        target = module_dict(view)["_view_target_module"]
        super().__init__((name, value) for name, value in vars(target).items()
                         if not name.startswith("_"))
        self._view = view

    def __getitem__(self, name: str) -> Any:
        try:
            return getattr(self._view, name)
        except AttributeError:
            raise KeyError(name) from None

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default
