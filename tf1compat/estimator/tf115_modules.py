"""TF 1.15's `tensorflow.python.estimator[.X]` modules, for TF1 code that imported them: a
script under `run` (`tf1compat.runner.private_modules`) and TF 1.15's own contrib code
(`tf1compat.contrib.tf115_code`)."""

from __future__ import annotations

import functools
import types
from typing import Any

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.module_view import ModuleView


class EstimatorModuleError(Tf1CompatError, ModuleNotFoundError):
    """TF 1.15's estimator module has no counterpart in tensorflow-estimator."""


# TF 1.15's `tensorflow.python.estimator` was tensorflow-estimator under another name: each of
# its modules put the estimator library's module of the same path in its place.
ESTIMATOR = "tensorflow.python.estimator"
_ESTIMATOR_LIBRARY = "tensorflow_estimator.python.estimator"


def is_estimator_module(name: str) -> bool:
    return name == ESTIMATOR or name.startswith(ESTIMATOR + ".")


class EstimatorModule(ModuleView):
    """TF 1.15's `tensorflow.python.estimator[.X]`: tensorflow-estimator's module, except that
    the classes `tf1compat.estimator` serves as its own subclasses (`Estimator`,
    `EstimatorSpec`, `RunConfig`) are those, as `tf.estimator`'s are under `run`."""

    def __init__(self, name: str, real: types.ModuleType):
        super().__init__(name, real)

    def _view_attribute(self, name: str) -> Any:
        real = self._view_target()
        if not hasattr(real, name) and hasattr(real, "__path__") and not name.startswith("_"):
            # a module of the package not imported yet (`from ... import estimator_lib`)
            try:
                return estimator_module(f"{self.__name__}.{name}")
            except EstimatorModuleError:
                pass
        value = getattr(real, name)
        if isinstance(value, types.ModuleType) and value.__name__ == f"{real.__name__}.{name}":
            return estimator_module(f"{self.__name__}.{name}")
        return _own_estimator_classes().get(id(value), value)

    def __repr__(self) -> str:
        return f"<module {self.__name__} (TF 1.15's: {self._view_target().__name__}, tf1compat)>"


@functools.lru_cache(maxsize=1)
def _own_estimator_classes() -> dict[int, type]:
    """{id of the library's class: tf1compat.estimator's subclass standing for it}, made once:
    every attribute a script reads from an estimator module looks it up."""
    import tf1compat.estimator as served

    return {id(own.__mro__[1]): own for own in (served.Estimator, served.EstimatorSpec,
                                                 served.RunConfig)}


_estimator_modules: dict[str, EstimatorModule] = {}


def estimator_module(name: str) -> types.ModuleType:
    """tensorflow-estimator's module for TF 1.15's `tensorflow.python.estimator[.X]`, loaded
    as tf1compat.estimator loads the library on TF 2.21.

    Raises:
      EstimatorModuleError: the library has no such module.
      EstimatorError: tensorflow-estimator is not installed.
    """
    import importlib

    from tf1compat.estimator.loader import v1_api

    if name in _estimator_modules:
        return _estimator_modules[name]
    v1_api()
    library = _ESTIMATOR_LIBRARY + name[len(ESTIMATOR):]
    try:
        real = importlib.import_module(library)
    except ImportError as error:
        raise EstimatorModuleError(f"No module named {name!r}: TF 1.15's {ESTIMATOR} was "
                                   f"tensorflow-estimator, which has no {library} ({error}); "
                                   "use the public tf.estimator names", name=name) from None
    module = _estimator_modules[name] = EstimatorModule(name, real)
    return module
