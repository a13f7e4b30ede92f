"""`tf.contrib.estimator` on TF 2.21: what TF 1.15 had there, from where it lives now.

- `replicate_model_fn`, `TowerOptimizer`: in-graph towers, rebuilt on
  `tf.compat.v1` (`tf1compat.estimator.replicate`);
- `forward_features`, `clip_gradients_by_norm`: rebuilt (`extenders`);
- `add_metrics`, the early-stopping hooks (`stop_if_no_decrease_hook`,
  `stop_if_no_increase_hook`, `stop_if_higher_hook`, `stop_if_lower_hook`,
  `make_early_stopping_hook`, `read_eval_metrics`), `InMemoryEvaluatorHook`,
  `make_stop_at_checkpoint_step_hook`, `build_raw_supervised_input_receiver_fn`,
  `call_logit_fn`, `dnn_logit_fn_builder`, `linear_logit_fn_builder`: TF 1.15
  moved these to `tf.estimator` / `tf.estimator.experimental`, and they are
  served from there (tensorflow-estimator 2.15, the same code).

Any other name fails with `EstimatorError` naming it. `tf1compat run` serves
this module's names as `tf.contrib.estimator.X`; `migrate` points them here.
"""

from __future__ import annotations

import importlib
from typing import Any

from tf1compat.estimator.errors import EstimatorError

_FROM_LIBRARY = {  # name -> its attribute path in tensorflow-estimator's tf.compat.v1.estimator
    "add_metrics": "add_metrics",
    **{name: f"experimental.{name}" for name in (
        "stop_if_no_decrease_hook", "stop_if_no_increase_hook", "stop_if_higher_hook",
        "stop_if_lower_hook", "make_early_stopping_hook", "InMemoryEvaluatorHook",
        "make_stop_at_checkpoint_step_hook", "build_raw_supervised_input_receiver_fn",
        "call_logit_fn", "dnn_logit_fn_builder", "linear_logit_fn_builder")},
}
_OWN = {"replicate_model_fn": "replicate", "TowerOptimizer": "tower_state",
        "forward_features": "extenders", "clip_gradients_by_norm": "extenders"}
SERVED = tuple(sorted([*_FROM_LIBRARY, *_OWN, "read_eval_metrics"]))

# TF 1.15's other tf.contrib.estimator names, and what to use instead.
NOT_SERVED = {
    **{name: "use the tf.estimator canned estimators (their `head` is built in) or write the "
             "loss in a model_fn" for name in (
        "binary_classification_head", "logistic_regression_head", "multi_class_head",
        "multi_head", "multi_label_head", "poisson_regression_head", "regression_head")},
    **{name: "TF 1.15's contrib RNN estimators are not served; build the RNN in a model_fn "
             "with tf.compat.v1.nn.dynamic_rnn" for name in ("RNNClassifier", "RNNEstimator")},
    **{name: "use tf.estimator.BoostedTreesClassifier / BoostedTreesRegressor"
       for name in ("boosted_trees_classifier_train_in_memory",
                    "boosted_trees_regressor_train_in_memory")},
    **{name: "use Estimator.export_saved_model (tf.estimator's own export)"
       for name in ("export_saved_model_for_mode", "export_all_saved_models",
                    "build_supervised_input_receiver_fn_from_input_fn")},
    "SavedModelEstimator": "load the SavedModel with tf.saved_model.load in TF2",
    **{name: "use tf.estimator.DNNClassifier / DNNRegressor (layer annotations are not "
             "served)" for name in ("DNNClassifierWithLayerAnnotations",
                                    "DNNRegressorWithLayerAnnotations")},
}


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    if name in _OWN:
        value = getattr(importlib.import_module(f"tf1compat.estimator.{_OWN[name]}"), name)
    elif name == "read_eval_metrics":  # not exported by tensorflow-estimator 2.15
        from tf1compat.estimator import loader

        loader.v1_api()
        value = importlib.import_module(
            "tensorflow_estimator.python.estimator.early_stopping").read_eval_metrics
    elif name in _FROM_LIBRARY:
        from tf1compat.estimator import loader

        value = loader.v1_api()
        for part in _FROM_LIBRARY[name].split("."):
            value = getattr(value, part)
    else:
        instead = NOT_SERVED.get(name, "it is not in TF 1.15's tf.contrib.estimator either")
        raise EstimatorError(f"tf.contrib.estimator.{name} is not served by tf1compat: "
                             f"{instead} (served: {', '.join(SERVED)})")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(SERVED)
