"""NumPy 1 (and SciPy 1.1's image helpers) for user code under `tf1compat run --numpy 1`.

TF1 scripts ran on NumPy <= 1.19; NumPy 2 removed names they use (`np.float`, `np.asscalar`,
`np.NaN`), raises on ragged `np.array([[1, 2], [3]])` and prints scalars as `np.int64(15)`.
`install` registers, with `user_modules`, importers that give user code views of numpy
(`view`: the names back, ragged arrays as NumPy 1.18 made them) and scipy (`scipy_view`:
`scipy.misc.imread` / `imresize` / `imsave` and friends on Pillow) and PIL (`pillow_view`:
`Image.ANTIALIAS` and the other filter names Pillow 10 removed); libraries import the real
modules. It also makes scalars print as NumPy 1 printed them, with NumPy's own
`np.set_printoptions(legacy="1.25")`, for the main thread and threads started later, and
size-1 arrays convert to Python scalars as NumPy 1 converted them (`scalars`): those two are
process-wide, libraries print and convert so too.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Optional, Sequence

from tf1compat.runner import user_modules
from tf1compat.runner.numpy1 import scalars
from tf1compat.shared import patches

CHOICES = ("1", "current")  # run's --numpy: NumPy 1 for user code, or NumPy as installed
PRINT_LEGACY = "1.25"  # NumPy 2's printing option that prints scalars as NumPy 1 did

_installed: Optional[dict[str, Any]] = None  # what install did, for the report
usage = None  # the view's Usage, once installed (numpy is imported then, not here)


def numpy_importer(view) -> Callable[[str, Sequence[str], Callable[[], Any]], Any]:
    """`import numpy [as np]` and `from numpy import float` get the view; `from numpy.random
    import rand` and the other submodules, the real ones (`import numpy.linalg` gives the
    view, whose `linalg` is numpy's)."""

    def answer(name: str, fromlist: Sequence[str], original: Callable[[], Any]) -> Any:
        if name == "numpy":
            return view
        module = original()
        return module if fromlist else view

    return answer


def install() -> dict[str, Any]:
    """From now on user code's numpy and scipy are NumPy 1's; returns what the report says."""
    global _installed, usage
    import numpy

    from tf1compat.runner.numpy1 import pillow_view, scipy_view
    from tf1compat.runner.numpy1.view import NumPy1Module, Usage

    usage = Usage()
    view = NumPy1Module(numpy, usage)
    user_modules.register("numpy", numpy_importer(view))
    user_modules.register("scipy", scipy_view.importer(
        scipy_view.SciPyModule(scipy_view.MiscModule(usage.names))))
    user_modules.register("PIL", pillow_view.importer(
        pillow_view.PILModule(pillow_view.ImageModule(usage.names))))
    numpy.set_printoptions(legacy=PRINT_LEGACY)
    _installed = {"numpy": numpy.__version__, "print_legacy": PRINT_LEGACY,
                  "threads_print_alike": patches.apply("numpy.legacy-printing",
                                                       _legacy_in_every_thread),
                  "size_one_scalars": patches.apply("numpy.size-one-scalars", scalars.change)}
    return _installed


# NumPy 2 keeps print options in a context variable: set_printoptions sets them for the
# calling thread only, and a thread started later begins from the variable's default. That
# default is NumPy's module-level dict, so setting its legacy mode there reaches the script's
# threads too (queue feeders, data loaders that print). Private to NumPy: without it, only
# the main thread prints as NumPy 1 did, and the report says so.
_LEGACY_CODES = {"1.25": 125}  # how numpy._core.printoptions stores each legacy mode


def _legacy_in_every_thread() -> tuple[bool, Callable[[], None]]:
    """The registry's change "numpy.legacy-printing": (whether it could be made, its undo)."""
    try:
        options = importlib.import_module("numpy._core.printoptions").default_format_options_dict
    except (ImportError, AttributeError):
        return False, lambda: None
    if not isinstance(options, dict) or "legacy" not in options:
        return False, lambda: None
    before = options["legacy"]
    options["legacy"] = _LEGACY_CODES[PRINT_LEGACY]
    return True, lambda: options.__setitem__("legacy", before)


def uninstall() -> None:
    global _installed
    import numpy

    user_modules.unregister("numpy")
    user_modules.unregister("scipy")
    user_modules.unregister("PIL")
    if _installed is not None:
        numpy.set_printoptions(legacy=False)
        patches.undo("numpy.legacy-printing")
        patches.undo("numpy.size-one-scalars")
    _installed = None


def report() -> Optional[dict[str, Any]]:
    """What the run served of NumPy 1 (None under --numpy current)."""
    if _installed is None:
        return None
    return {**_installed, **usage.to_dict()}
