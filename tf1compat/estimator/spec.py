"""`Estimator` and `EstimatorSpec` whose mistakes are reported by cause.

tensorflow-estimator's own messages are terse ("Missing loss.", "model_fn
(...) has following not expected args"); these subclasses say which
model_fn, which mode and what an Estimator accepts, and are the classes
`tf.estimator.Estimator` / `tf.estimator.EstimatorSpec` name under
`tf1compat run`. Canned estimators keep the library's classes.
"""

from __future__ import annotations

import inspect
from typing import Any

from tf1compat.estimator import loader
from tf1compat.estimator.errors import EstimatorError

_library = loader.v1_api()
_MODEL_FN_ARGS = "features, labels, mode, params, config"


def _describe(function: Any) -> str:
    name = getattr(function, "__qualname__", None) or repr(function)
    try:
        return f"{name}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return name


class EstimatorSpec(_library.EstimatorSpec):
    """TF1's `tf.estimator.EstimatorSpec`; a spec that cannot work names the mode and the field."""

    __slots__ = ()

    def __new__(cls, mode: Any, *args: Any, **kwargs: Any):
        try:
            return super().__new__(cls, mode, *args, **kwargs)
        except (ValueError, TypeError) as error:
            values = dict(zip(_library.EstimatorSpec._fields[1:], args), **kwargs)
            given = sorted(field for field, value in values.items() if value is not None)
            needs = {"train": "loss and train_op", "eval": "loss",
                     "infer": "predictions"}.get(str(mode), "the fields of its mode")
            raise EstimatorError(
                f"tf.estimator.EstimatorSpec(mode={mode!r}) is rejected: {error} "
                f"(given: {', '.join(given) or 'nothing but mode'}; mode {mode!r} needs "
                f"{needs})") from None


class Estimator(_library.Estimator):
    """TF1's `tf.estimator.Estimator`; a model_fn with the wrong signature is named at construction."""

    def __init__(self, model_fn: Any, *args: Any, **kwargs: Any):
        if not callable(model_fn):
            raise EstimatorError(f"tf.estimator.Estimator(model_fn=...) needs a function "
                                 f"({_MODEL_FN_ARGS}); received model_fn={model_fn!r}")
        try:
            super().__init__(model_fn, *args, **kwargs)
        except ValueError as error:
            if not str(error).startswith("model_fn"):
                raise
            raise EstimatorError(
                f"tf.estimator.Estimator: model_fn {_describe(model_fn)} cannot be called as "
                f"an Estimator calls it: {error}. An Estimator passes features (required), "
                f"and labels, mode, params, config to those of them the function "
                f"names") from None
