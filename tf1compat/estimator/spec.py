"""`Estimator` and `EstimatorSpec` whose mistakes are reported by cause.

tensorflow-estimator's own messages are terse ("Missing loss.", "model_fn
(...) has following not expected args"); these subclasses say which
model_fn, which mode and what an Estimator accepts, and are the classes
`tf.estimator.Estimator` / `tf.estimator.EstimatorSpec` name under
`tf1compat run`. Canned estimators keep the library's classes.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from tf1compat.estimator import loader
from tf1compat.estimator.device_check import named_devices
from tf1compat.estimator.errors import EstimatorError

_library = loader.v1_api()
_MODEL_FN_ARGS = ("features", "labels", "mode", "params", "config")
_NEEDS = {"train": ("loss", "train_op"), "eval": ("loss",), "infer": ("predictions",)}


def _describe(function: Any) -> str:
    name = getattr(function, "__qualname__", None) or repr(function)
    try:
        return f"{name}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return name


def _check_model_fn(model_fn: Any) -> None:
    accepted = ", ".join(_MODEL_FN_ARGS)
    if not callable(model_fn):
        raise EstimatorError(f"tf.estimator.Estimator(model_fn=...) needs a function taking "
                             f"features and any of labels, mode, params, config; received "
                             f"model_fn={model_fn!r}")
    from tensorflow.python.util import function_utils

    names = function_utils.fn_args(model_fn)
    unexpected = [name for name in names if name not in _MODEL_FN_ARGS]
    if "features" not in names or unexpected:
        causes = [] if "features" in names else ["it has no 'features' argument"]
        if unexpected:
            causes.append(f"it takes {', '.join(unexpected)}, which an Estimator never passes")
        cause = " and ".join(causes)
        raise EstimatorError(
            f"tf.estimator.Estimator: model_fn {_describe(model_fn)} cannot be called as an "
            f"Estimator calls it: {cause}; accepted arguments: {accepted} (features "
            "required; the others are passed when the function names them)")


class EstimatorSpec(_library.EstimatorSpec):
    """TF1's `tf.estimator.EstimatorSpec`; a spec that cannot work names the mode and the field."""

    __slots__ = ()

    def __new__(cls, mode: Any, *args: Any, **kwargs: Any):
        try:
            return super().__new__(cls, mode, *args, **kwargs)
        except (ValueError, TypeError) as error:
            values = dict(zip(_library.EstimatorSpec._fields[1:], args), **kwargs)
            given = sorted(field for field, value in values.items() if value is not None)
            needs = _NEEDS.get(str(mode), ())
            missing = [field for field in needs if values.get(field) is None]
            cause = f"missing {', '.join(missing)}" if missing else str(error)
            raise EstimatorError(
                f"tf.estimator.EstimatorSpec(mode={mode!r}) is rejected: {cause} (given: "
                f"{', '.join(given) or 'nothing but mode'}; mode {mode!r} needs "
                f"{' and '.join(needs) or 'one of ' + str(sorted(_NEEDS))}; the library "
                f"said: {error})") from None


class Estimator(_library.Estimator):
    """TF1's `tf.estimator.Estimator`; a model_fn with the wrong signature is named at construction.

    An op asking for a device that does not exist (soft placement off) fails in
    train / evaluate / predict with a `DeviceError` listing the devices there are.
    """

    def __init__(self, model_fn: Any, *args: Any, **kwargs: Any):
        _check_model_fn(model_fn)
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
        # The library refuses subclasses that override train/evaluate/predict, so the
        # device-error translation wraps this instance's bound methods instead.
        for name in ("train", "evaluate"):
            setattr(self, name, _with_named_devices(getattr(self, name)))
        library_predict = self.predict

        def predict(*args: Any, **kwargs: Any) -> Any:
            with named_devices():
                yield from library_predict(*args, **kwargs)

        self.predict = functools.wraps(library_predict)(predict)


def _with_named_devices(method: Any) -> Any:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        with named_devices():
            return method(*args, **kwargs)

    return call


# The checks above take *args / **kwargs; what a caller (and `inspect`) sees are the
# library's own parameters, TF 1.x's.
EstimatorSpec.__signature__ = inspect.signature(_library.EstimatorSpec)
Estimator.__signature__ = inspect.signature(_library.Estimator)
