"""`tf1compat.estimator`: TF1's `tf.estimator` on TensorFlow 2.21.

TensorFlow removed `tf.estimator` in 2.16. This package serves TF1's
Estimator API (`tf.compat.v1.estimator` of TF 2.15, which kept TF 1.15's
behaviour and checkpoint layout) from the last tensorflow-estimator release,
2.15.0, loaded on TF 2.21 by `loader`; three names are tf1compat's own
subclasses that check their input: `RunConfig` (its `session_config` goes
through `SessionOptions`), `Estimator` (a model_fn with the wrong signature)
and `EstimatorSpec` (a spec missing what its mode needs); `tpu` is TF1's
TPUEstimator family, run with `use_tpu=False` on CPU/GPU; `contrib` is TF1's
`tf.contrib.estimator` (`replicate_model_fn` towers and the rest). `tf1compat
run` serves this package as `tf.estimator` and `tf.compat.v1.estimator`.

Nothing is loaded until a name is first read:

>>> import tf1compat.estimator as estimator
>>> estimator.ModeKeys.TRAIN
'train'
"""

from __future__ import annotations

import importlib
from typing import Any

_OWN = {
    "RunConfig": "tf1compat.estimator.run_config",
    "Estimator": "tf1compat.estimator.spec",
    "EstimatorSpec": "tf1compat.estimator.spec",
    "EstimatorError": "tf1compat.estimator.errors",
}
_SUBMODULES = {"contrib", "device_check", "distribute", "errors", "extenders", "keras_routing",
               "loader", "replicate", "run_config", "spec", "tf_internals", "tower_specs",
               "tower_state", "tpu"}
# Canned estimators build Keras 2 models; TF 2.21's Keras 3 cannot stand in.
_NEED_KERAS2 = {"DNNClassifier", "DNNRegressor", "DNNEstimator", "LinearClassifier",
                "LinearRegressor", "LinearEstimator", "DNNLinearCombinedClassifier",
                "DNNLinearCombinedRegressor", "DNNLinearCombinedEstimator",
                "BaselineClassifier", "BaselineRegressor", "BaselineEstimator"}


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _OWN:
        value = getattr(importlib.import_module(_OWN[name]), name)
    else:
        keras_routing = importlib.import_module("tf1compat.estimator.keras_routing")
        loader = importlib.import_module("tf1compat.estimator.loader")
        EstimatorError = importlib.import_module("tf1compat.estimator.errors").EstimatorError

        if name in _NEED_KERAS2 and not keras_routing.keras2_available():
            raise EstimatorError(f"tf.estimator.{name} builds a Keras 2 model and needs "
                                 "tf_keras: pip install 'tf1compat[legacy]'")
        api = loader.v1_api()
        try:
            value = getattr(api, name)
        except AttributeError:
            raise AttributeError(f"tf.estimator.{name} is not in TF 1.15's tf.estimator "
                                 "(tf1compat serves it from tensorflow-estimator 2.15's "
                                 "tf.compat.v1.estimator)") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    loader = importlib.import_module("tf1compat.estimator.loader")
    return sorted(set(dir(loader.v1_api())) - {"_module_wrapper", "_sys"} | set(_OWN))
