"""The `numpy` user code gets under `run --numpy 1`: NumPy 2, with NumPy 1's names back.

`NumPy1Module` is a module whose attribute reads go to the real numpy, except:

- the names NumPy 2 removed (`aliases.ALIASES`: `np.float` is `float`, `np.asscalar(a)` is
  `a.item()`) come from the table; each read is counted for the report, so they are not
  cached (scripts read them in dtype= arguments, not in inner loops);
- `array` / `asarray` make an object array of ragged nested sequences, as NumPy 1.18 did,
  where NumPy 2 raises ValueError, and `np.array(x, copy=False)` copies where it must, as in
  NumPy 1 (`ragged`); `reshape` takes NumPy 1's `newshape=` keyword.

Every other name is the real object (`np.ndarray`, `np.float32`, `np.random` are numpy's own,
so `isinstance(x, np.ndarray)` holds for arrays made anywhere), cached in the instance dict on
first read: a later `np.zeros` is a plain dict lookup, as on the real module.
"""

from __future__ import annotations

import collections
import types
from typing import Any

from tf1compat.runner.numpy1 import aliases, ragged
from tf1compat.shared.module_view import TARGET, ModuleView


def _reshape(reshape):
    """`np.reshape(a, newshape=(2, 3))`: NumPy 1's keyword (NumPy 2.4 knows only `shape=`)."""

    def reshape_with_newshape(a, newshape=None, order="C", **kwargs):
        if newshape is None:
            return reshape(a, order=order, **kwargs)
        return reshape(a, newshape, order=order, **kwargs)

    reshape_with_newshape.__doc__ = reshape.__doc__
    return reshape_with_newshape


class Usage:
    """What the script took from NumPy 1: names read (with counts), ragged arrays made."""

    def __init__(self) -> None:
        self.names: collections.Counter[str] = collections.Counter()
        self.ragged: collections.Counter[str] = collections.Counter()  # 'file:line' -> arrays

    def to_dict(self) -> dict[str, Any]:
        return {"names": dict(sorted(self.names.items())), "ragged": dict(self.ragged)}


def lib_name_moved(numpy_module: types.ModuleType, name: str) -> bool:
    """Whether `np.lib.<name>` is one NumPy 1 had that NumPy 2 keeps only as `np.<name>`:
    NumPy 1's `numpy.lib` re-exported its submodules' functions (`np.lib.pad`), NumPy 2's
    holds only submodules."""
    return not name.startswith("_") and not hasattr(numpy_module.lib, name) \
        and callable(getattr(numpy_module, name, None))


class LibModule(ModuleView):
    """`np.lib` for user code: NumPy 2's, and NumPy 1's functions it re-exported (`np.lib.pad`;
    each read of those counted, so nothing is kept)."""

    def __init__(self, real: types.ModuleType, usage: Usage):
        super().__init__(real.lib.__name__, real.lib)
        self._view_set("_np1_real", real)
        self._view_set("_np1_usage", usage)

    def _view_attribute(self, name: str) -> Any:
        real = self._np1_real
        if lib_name_moved(real, name):
            self._np1_usage.names[f"lib.{name}"] += 1
            return getattr(real, name)
        return TARGET


class NumPy1Module(types.ModuleType):
    """A view of the real numpy for user code, with NumPy 1's removed names (see module doc)."""

    def __init__(self, real: types.ModuleType, usage: Usage):
        super().__init__(real.__name__, real.__doc__)
        state = self.__dict__
        for dunder in ("__spec__", "__loader__", "__package__"):
            state[dunder] = getattr(real, dunder, None)
        state["_np1_real"] = real
        state["_np1_usage"] = usage
        state["_np1_served"] = {}
        state["array"] = ragged.wrap(real.array, usage.ragged, copy_if_needed=True)
        state["asarray"] = ragged.wrap(real.asarray, usage.ragged)
        state["reshape"] = _reshape(real.reshape)
        state["lib"] = LibModule(real, usage)
        # The module's own __getattr__ (PEP 562), not the class's: a class __getattr__ would
        # send every read, found or not, through Python's slower attribute hook.
        state["__getattr__"] = self._np1_missing
        state["__dir__"] = self._np1_dir

    def _np1_missing(self, name: str) -> Any:  # only for names not yet in the instance dict
        alias = aliases.ALIASES.get(name)
        if alias is not None:
            self._np1_usage.names[name] += 1
            served = self._np1_served
            if name not in served:
                served[name] = alias.value()
            return served[name]
        value = getattr(self._np1_real, name)  # numpy's own AttributeError for unknown names
        if not name.startswith("__"):  # dunders stay live (__version__ is cheap and rare)
            self.__dict__[name] = value
        return value

    def _np1_dir(self) -> list[str]:
        return sorted(set(dir(self._np1_real)) | set(aliases.ALIASES))

    def __repr__(self) -> str:
        return f"<module 'numpy' (NumPy {self._np1_real.__version__} with NumPy 1's names, " \
               "tf1compat run --numpy 1)>"
