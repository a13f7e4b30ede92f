"""The `tensorflow` that tensorflow-estimator's own modules see: TF 2.21 with Keras 2.

The library was written for TF 2.15, whose `tf.keras` was Keras 2; its canned
estimators subclass `tf.keras.Model`, build `tf.compat.v1.layers.Dense` and
`tf.compat.v1.keras.layers.DenseFeatures`, and use `tf.keras.optimizers.legacy`.
On TF 2.21 `tf.keras` is Keras 3, which has none of these. Keras 2 lives on as
tf_keras, so each library module gets a view of `tensorflow` whose Keras
names are tf_keras's and whose every other name is TensorFlow's own. Nothing
global changes: the user's `tf.keras` stays whatever it was.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import types
from typing import Any, Iterator

LIBRARY = "tensorflow_estimator"


class _View(types.ModuleType):
    """A module that reads through to `target`, except for the names in `replaced`."""

    def __init__(self, target: types.ModuleType, replaced: dict[str, Any]):
        super().__init__(target.__name__, target.__doc__)
        self.__dict__["_view_target"] = target
        self.__dict__["_view_replaced"] = replaced

    def __getattr__(self, name: str) -> Any:
        replaced = self.__dict__["_view_replaced"]
        if name in replaced:
            return replaced[name]
        return getattr(self.__dict__["_view_target"], name)


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


@contextlib.contextmanager
def library_imports_see(view: types.ModuleType) -> Iterator[None]:
    """While the library is imported, its `import tensorflow as tf` gives `view`."""
    original = builtins.__import__

    def routed(name, globals=None, locals=None, fromlist=(), level=0):
        module = original(name, globals, locals, fromlist, level)
        if name == "tensorflow" and level == 0 and not fromlist and globals is not None \
                and str(globals.get("__name__", "")).startswith(LIBRARY):
            return view
        return module

    builtins.__import__ = routed
    try:
        yield
    finally:
        builtins.__import__ = original
