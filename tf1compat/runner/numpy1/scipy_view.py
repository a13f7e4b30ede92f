"""The `scipy` user code gets under `run --numpy 1`: `scipy.misc`'s removed image helpers served.

User code's `import scipy.misc`, `from scipy import misc`, `from scipy.misc import imread` and
`scipy.misc.imread` reach `MiscModule` (the helpers of `scipy_misc`, on Pillow), whether or not
SciPy is installed. Everything else is the real SciPy: `scipy.ndimage` and the rest come from
it as imported, and where SciPy is not installed a name that needs it raises the usual
ModuleNotFoundError, with the install hint.
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable, Sequence

from tf1compat.runner.numpy1 import scipy_misc
from tf1compat.shared.module_view import TARGET, ModuleView

INSTALL_HINT = "SciPy is not installed: install the SciPy your script needs"
# scipy.misc's names that were SciPy 1.1's aliases of scipy.special's (the census counts
# logsumexp), read from there.
SPECIAL = ("logsumexp", "comb", "factorial", "factorial2", "factorialk")


def _real(module: str) -> types.ModuleType:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name == "scipy":
            raise ModuleNotFoundError(f"No module named {module!r} ({INSTALL_HINT}; tf1compat "
                                      "run serves only scipy.misc's image helpers without it)",
                                      name=module) from None
        if error.name is not None and error.name.startswith("scipy."):
            raise ModuleNotFoundError(f"No module named {module!r}: the installed SciPy has "
                                      f"no {error.name}", name=module) from None
        raise


class MiscModule(ModuleView):
    """scipy.misc for user code: the served helpers, then SciPy's own names (each read of
    the served ones counted, so nothing is kept)."""

    def __init__(self, used):
        super().__init__("scipy.misc", doc=scipy_misc.__doc__)
        self._view_set("_np1_used", used)

    def _view_attribute(self, name: str) -> Any:
        if name in scipy_misc.SERVED or name in scipy_misc.REMOVED:
            self._np1_used[f"scipy.misc.{name}"] += 1
            return getattr(scipy_misc, name) if name in scipy_misc.SERVED \
                else scipy_misc.removed(name)
        if name in SPECIAL:
            self._np1_used[f"scipy.misc.{name}"] += 1
            return getattr(_real("scipy.special"), name)
        try:
            return getattr(_real("scipy.misc"), name)
        except (AttributeError, ModuleNotFoundError) as error:
            raise AttributeError(f"module 'scipy.misc' has no attribute {name!r} ({error})") \
                from None

    def _view_names(self) -> set[str]:
        return {*scipy_misc.SERVED, *scipy_misc.REMOVED, *SPECIAL}


class SciPyModule(ModuleView):
    """scipy for user code: its `misc` is `MiscModule`, the rest the real SciPy's (imported
    at the first read)."""

    def __init__(self, misc: MiscModule):
        super().__init__("scipy")
        self._view_set("misc", misc)

    def _view_target(self) -> types.ModuleType:
        return _real("scipy")

    def _view_attribute(self, name: str) -> Any:
        if hasattr(self._view_target(), name):
            return TARGET
        return _real(f"scipy.{name}")  # a submodule not imported yet (SciPy loads lazily)


def importer(view: SciPyModule) -> Callable[[str, Sequence[str], Callable[[], Any]], Any]:
    """The user_modules importer for `scipy`."""

    def answer(name: str, fromlist: Sequence[str], original: Callable[[], Any]) -> Any:
        if name == "scipy.misc" or name.startswith("scipy.misc."):
            return view.misc if fromlist else view
        if name == "scipy":
            return view
        try:
            module = original()  # scipy.ndimage and the rest: SciPy's own
        except ModuleNotFoundError as error:
            # SciPy itself missing: say so; a submodule SciPy lacks keeps Python's own error.
            if error.name == "scipy":
                raise ModuleNotFoundError(f"No module named {name!r} ({INSTALL_HINT})",
                                          name=name) from None
            raise
        return module if fromlist else view

    return answer
