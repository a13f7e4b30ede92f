"""The one base of every module view: a module a script or a library reads in place of another.

TF1 code reads modules that TF 2.21, NumPy 2, Pillow 10, SciPy or Keras 3 changed:
`tf.compat.v1` with TF 1.15's names, `tensorflow.python.ops.control_flow_ops` with `cond`
back, `numpy.lib` with `pad`, `scipy.misc` with `imread`. Each is a `ModuleView` over the
module it stands for (its target: given, looked up at each read where the library is
imported only when a script reads it, or none): `__getattr__` asks the view's
`_view_attribute(name)` for every name the view's own namespace lacks, which answers the
value or `TARGET` (the target's own, read as it is), and dunders read the target's
(`__version__`, `__file__`) or are missing.

The one caching policy: a view keeps nothing by default, so every read comes back to
`_view_attribute`, as it must where reads are counted for the run's report or the target is
a module TensorFlow loads lazily; a view whose answers never change and are not counted says
`KEEPS = True`, and a name it answered is written into its namespace, so the next read never
reaches `__getattr__` (a view's own state, set up front with `_view_set`, is read that way too).

NumPy's own view (`runner.numpy1.view.NumPy1Module`) alone is not one: `np.X` is read in
scripts' inner loops, and a class-level `__getattr__` sends every read, found or not, through
Python's slower attribute hook, so it keeps its names in its namespace and a module-level
`__getattr__` (PEP 562) answers the rest.
"""

from __future__ import annotations

import types
from typing import Any, Iterable, Optional

# The module's own attribute dictionary, whatever a subclass shows as `__dict__` (the TF1
# module shows its namespace's names there, as TF 1.15's module wrapper did).
module_dict = types.ModuleType.__dict__["__dict__"].__get__
# What `_view_attribute` returns for a name the view reads from its target as it is.
TARGET = object()


class ModuleView(types.ModuleType):
    """A module standing for its target: the same names, some served otherwise (see the
    module docstring). Subclasses override `_view_attribute`; `_view_target` where the target
    is looked up on each read (a library imported only once a script reads it); and
    `_view_names` for what `dir()` lists beside the target's names."""

    KEEPS = False  # the caching policy: whether a name the view served is kept in its namespace

    def __init__(self, name: str, target: Optional[types.ModuleType] = None,
                 doc: Optional[str] = None) -> None:
        super().__init__(name, doc if doc is not None else getattr(target, "__doc__", None))
        # `_view_target()` reads it; a view whose lookups are hot (the TF1 module's servers)
        # reads the field itself
        self._view_set("_view_target_module", target)

    def _view_set(self, name: str, value: Any) -> None:
        """Puts `value` in the view's own namespace, past any `__setattr__` of a subclass."""
        module_dict(self)[name] = value

    def _view_target(self) -> Optional[types.ModuleType]:
        """The module the view stands for, or None where there is none."""
        return module_dict(self)["_view_target_module"]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            return self._view_target_attribute(name)
        value = self._view_attribute(name)
        if value is TARGET:
            return self._view_target_attribute(name)
        if self.KEEPS:
            module_dict(self)[name] = value
        return value

    def _view_target_attribute(self, name: str) -> Any:
        target = self._view_target()
        if target is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return getattr(target, name)

    def _view_attribute(self, name: str) -> Any:
        """The value of `name`, which the view's namespace lacks; `TARGET`: the target's."""
        return TARGET

    def _view_names(self) -> Iterable[str]:
        """The names `dir()` lists beside the target's."""
        return ()

    def __dir__(self) -> list[str]:
        target = self._view_target()
        own = [name for name in module_dict(self) if not name.startswith("_")]
        return sorted({*own, *self._view_names(), *(dir(target) if target is not None else ())})
