"""Loads tensorflow-estimator 2.15 on TF 2.21: internals stood in for, Keras 2 routed in.

Done once per process, on the first use of a `tf1compat.estimator` name, so
importing tf1compat stays cheap.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
import types

from tf1compat.estimator.errors import EstimatorError

_INSTALL_HINT = "pip install tensorflow-estimator==2.15.0 (a dependency of tf1compat)"
_lock = threading.Lock()
_api: types.ModuleType | None = None


def v1_api() -> types.ModuleType:
    """tensorflow-estimator's TF1 API (`tf.compat.v1.estimator`), loaded on first call.

    Raises:
      EstimatorError: tensorflow-estimator is not installed.
    """
    global _api
    with _lock:
        if _api is None:
            _api = _load()
    return _api


def _load() -> types.ModuleType:
    from tf1compat.estimator import keras_routing, tf_internals
    from tf1compat.shared import tf_internals as declared

    if importlib.util.find_spec(keras_routing.LIBRARY) is None:
        raise EstimatorError(f"tf.estimator needs tensorflow-estimator: {_INSTALL_HINT}")
    for internal in declared.ESTIMATOR_INTERNALS:
        try:
            declared.require(internal)
        except declared.MissingInternalError as error:
            raise EstimatorError(str(error)) from None
    tf_internals.install()
    keras_routing.route_library_imports(keras_routing.tensorflow_view())
    return importlib.import_module("tensorflow_estimator._api.v1.estimator")
