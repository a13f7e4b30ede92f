"""The `tensorflow` that tensorflow-estimator's own modules see: TF 2.21 with Keras 2.

The library was written for TF 2.15, whose `tf.keras` was Keras 2; its canned
estimators subclass `tf.keras.Model`, build `tf.compat.v1.layers.Dense` and
`tf.compat.v1.keras.layers.DenseFeatures`, and use `tf.keras.optimizers.legacy`.
On TF 2.21 `tf.keras` is Keras 3, which has none of these. Keras 2 lives on as
tf_keras, so each library module gets a view of `tensorflow` whose Keras
names are tf_keras's and whose every other name is TensorFlow's own: the
library's modules load with builtins of their own whose `__import__` gives the
view (a finder on `sys.meta_path` that answers for the library alone). Nothing
else changes: the user's `tf.keras` stays whatever it was, and `builtins` is
never touched.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.abc
import importlib.machinery
import types
from typing import Any

from tf1compat.shared import patches
from tf1compat.shared.module_view import ModuleView

LIBRARY = "tensorflow_estimator"


class _View(ModuleView):
    """A module that reads through to `target`, except for the names in `replaced`."""

    def __init__(self, target: types.ModuleType, replaced: dict[str, Any]):
        super().__init__(target.__name__, target)
        for name, value in replaced.items():
            self._view_set(name, value)


def keras2_available() -> bool:
    try:
        importlib.import_module("tf_keras")
    except ImportError:
        return False
    return True


def tensorflow_view() -> types.ModuleType:
    """`tensorflow` with `keras`, `compat.v1.keras`, `compat.v1.layers`, `compat.v2.keras` from tf_keras.

    Without tf_keras the view is TensorFlow itself: custom Estimators still
    work, and the canned ones say they need tf_keras (see `tf1compat.estimator`).
    """
    import tensorflow as tf

    if not keras2_available():
        return tf
    keras2 = importlib.import_module("tf_keras")
    keras2_v1 = importlib.import_module("tf_keras.api._v1.keras")
    layers_v1 = importlib.import_module("tf_keras.api._v1.keras.__internal__.legacy.layers")
    v1 = _View(tf.compat.v1, {"keras": keras2_v1, "layers": layers_v1})
    v2 = _View(tf.compat.v2, {"keras": keras2})
    compat = _View(tf.compat, {"v1": v1, "v2": v2})
    return _View(tf, {"keras": keras2, "compat": compat})


def _routed_builtins(view: types.ModuleType) -> dict[str, Any]:
    """The builtins of the library's modules: `import tensorflow [as tf]` gives `view`; every
    other import is whatever `builtins.__import__` is when it runs (a hook installed later
    included)."""

    def routed(name, globals=None, locals=None, fromlist=(), level=0):
        module = builtins.__import__(name, globals, locals, fromlist, level)
        if name == "tensorflow" and level == 0 and not fromlist:
            return view
        return module

    return dict(vars(builtins), __import__=routed)


class _RoutedLoader(importlib.abc.Loader):
    """A library module's own loader, run with the routed builtins in the module's globals
    (Python reads `__builtins__` from a module's globals: nothing process-wide changes)."""

    def __init__(self, loader: importlib.abc.Loader, library_builtins: dict[str, Any]):
        self._loader = loader
        self._builtins = library_builtins

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__["__builtins__"] = self._builtins
        self._loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:  # get_code, is_package, resource readers, ...
        return getattr(self._loader, name)


class _LibraryFinder(importlib.abc.MetaPathFinder):
    """Finds the library's modules as Python would, and loads each with the routed builtins."""

    def __init__(self, library_builtins: dict[str, Any]):
        self.builtins = library_builtins

    def find_spec(self, fullname, path, target=None):
        if fullname != LIBRARY and not fullname.startswith(LIBRARY + "."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _RoutedLoader(spec.loader, self.builtins)
        return spec


def route_library_imports(view: types.ModuleType) -> None:
    """From now on the library's modules, as they load (from any thread), get `view` for
    `import tensorflow`. Once per process (the registry's "python.estimator-finder");
    modules loaded before keep what they had."""
    patches.insert_finder("python.estimator-finder",
                          lambda: _LibraryFinder(_routed_builtins(view)))
