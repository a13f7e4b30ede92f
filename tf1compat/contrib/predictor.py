"""`tf.contrib.predictor`: a callable predictor of a SavedModel or of an Estimator's export.

The predictors are TF 1.15's own classes, run from its source (`tf115_code`):
`SavedModelPredictor` and `CoreEstimatorPredictor`. Their factories are here because TF
1.15's `predictor_factories` module also imports the `tf.contrib.learn` predictor, whose
kernels TF 2.21 does not have; `from_contrib_estimator` (for a `tf.contrib.learn`
Estimator) is therefore not served.
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry, tf115_code

__all__ = ["from_saved_model", "from_estimator"]
_PACKAGE = f"{tf115_code.PREFIX}contrib.predictor."


def _tf115_class(module: str, name: str) -> Any:
    try:
        return tf115_code.load(f"{_PACKAGE}{module}.{name}")
    except ImportError as error:
        raise registry.ContribError(f"predictor.{name}", f"TF 1.15's {module} could not be "
                                    f"loaded: {error}") from None


def from_saved_model(export_dir, signature_def_key=None, signature_def=None, input_names=None,
                     output_names=None, tags=None, graph=None, config=None):
    """TF 1.15's `SavedModelPredictor` of the SavedModel in `export_dir`: called with a dict
    of its inputs, it returns a dict of its outputs (one session, kept open)."""
    predictor = _tf115_class("saved_model_predictor", "SavedModelPredictor")
    return predictor(export_dir, signature_def_key=signature_def_key,
                     signature_def=signature_def, input_names=input_names,
                     output_names=output_names, tags=tags, graph=graph, config=config)


def from_estimator(estimator, serving_input_receiver_fn, output_key=None, graph=None,
                   config=None):
    """TF 1.15's `CoreEstimatorPredictor` of a `tf.estimator` Estimator's latest checkpoint,
    fed through `serving_input_receiver_fn`'s receiver tensors."""
    predictor = _tf115_class("core_estimator_predictor", "CoreEstimatorPredictor")
    return predictor(estimator, serving_input_receiver_fn, output_key=output_key, graph=graph,
                     config=config)


def __getattr__(name: str) -> Any:
    return registry.attribute("predictor", name)
