"""Keras 2's `wrappers.scikit_learn` (TF 1.15's `tf.keras.wrappers.scikit_learn`), on tf_keras.

tf_keras dropped `KerasClassifier` and `KerasRegressor` (their successor is the scikeras
package, with another API). TF1-era scripts hand them to scikit-learn's `cross_val_score`
or `GridSearchCV`, which only call the scikit-learn estimator protocol: `get_params`,
`set_params`, `fit`, `predict`, `score` (and `predict_proba`). These classes keep Keras 2's
contract for each:

- `build_fn` (a function, an object with `__call__`, or None for a subclass's own
  `__call__`) builds the model from the keyword parameters it names; every other keyword
  goes to `fit`, `predict` or `evaluate`, whichever takes it, and a keyword none of them
  takes raises ValueError at construction (Keras 2 let `nb_epoch` through);
- a classifier's labels may be any sortable values: it trains on their indices in
  `classes_` (one-hot when the loss is categorical cross-entropy) and predicts the labels;
- `score` is the accuracy metric for a classifier (the model must compute one) and the
  negated loss for a regressor, since scikit-learn maximizes scores.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import types
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.keras2 import V1_KERAS

__all__ = ["BaseWrapper", "KerasClassifier", "KerasRegressor"]
_BUILD_FN_KINDS = (types.FunctionType, types.MethodType)


def _keras(module: str) -> Any:
    return importlib.import_module(f"{V1_KERAS}.{module}")


def _takes(function: Callable, name: str) -> bool:
    """Whether `function` has a parameter called `name` (not counting **kwargs)."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    found = parameters.get(name)
    return found is not None and found.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                inspect.Parameter.KEYWORD_ONLY)


def _model_calls() -> dict[str, Callable]:
    from tf1compat.keras2.models import Sequential

    return {"fit": Sequential.fit, "predict": Sequential.predict,
            "predict_classes": Sequential.predict_classes,
            "predict_proba": Sequential.predict_proba, "evaluate": Sequential.evaluate}


class BaseWrapper:
    """What both wrappers share: parameters, building the model, training it."""

    _estimator_type: Optional[str] = None  # scikit-learn's tag before 1.6 ("classifier", ...)

    def __init__(self, build_fn=None, **sk_params):
        self.build_fn = build_fn
        self.sk_params = sk_params
        self.check_params(sk_params)

    def _builder(self) -> Callable:
        """The callable whose parameters name the model's building parameters."""
        if self.build_fn is None:
            return self.__call__
        if isinstance(self.build_fn, _BUILD_FN_KINDS):
            return self.build_fn
        return self.build_fn.__call__

    def check_params(self, params) -> None:
        """Raises ValueError for a parameter neither the model's builder nor Keras takes."""
        takers = [*_model_calls().values(), self._builder()]
        for name in params:
            if name != "nb_epoch" and not any(_takes(taker, name) for taker in takers):
                raise ValueError(f"{name} is not a legal parameter")

    def __sklearn_tags__(self):
        """scikit-learn 1.6 and later read an estimator's kind from its tags (`cross_val_score`
        folds a classifier's samples by class); Keras 2's wrappers predate them."""
        from sklearn.utils import ClassifierTags, RegressorTags, Tags, TargetTags

        kind = self._estimator_type
        return Tags(estimator_type=kind, target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags() if kind == "classifier" else None,
                    regressor_tags=RegressorTags() if kind == "regressor" else None)

    def get_params(self, **params) -> dict:
        """The parameters scikit-learn clones the wrapper with."""
        return {**copy.deepcopy(self.sk_params), "build_fn": self.build_fn}

    def set_params(self, **params):
        self.check_params(params)
        self.sk_params.update(params)
        return self

    def filter_sk_params(self, fn: Callable, override=None) -> dict:
        """The wrapper's parameters that `fn` takes, with `override` on top."""
        chosen = {name: value for name, value in self.sk_params.items() if _takes(fn, name)}
        chosen.update(override or {})
        return chosen

    def fit(self, x, y, **kwargs):
        """Builds a new model and trains it; returns the History of `model.fit`."""
        builder = self._builder()
        self.model = builder(**self.filter_sk_params(builder))
        losses = importlib.import_module("tf_keras.src.losses")  # not exported, kept there
        if losses.is_categorical_crossentropy(self.model.loss) and len(np.shape(y)) != 2:
            y = _keras("utils").to_categorical(y)
        arguments = copy.deepcopy(self.filter_sk_params(_model_calls()["fit"]))
        arguments.update(kwargs)
        return self.model.fit(x, y, **arguments)


class KerasClassifier(BaseWrapper):
    """A scikit-learn classifier over a Keras model built by `build_fn` (a Sequential model:
    its `predict_classes` and `predict_proba` answer)."""

    _estimator_type = "classifier"

    def fit(self, x, y, **kwargs):
        y = np.array(y)
        if y.ndim == 2 and y.shape[1] > 1:  # one-hot already: the classes are the columns
            self.classes_ = np.arange(y.shape[1])
        elif y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1):
            self.classes_ = np.unique(y)
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError(f"Invalid shape for y: {y.shape}")
        self.n_classes_ = len(self.classes_)
        return super().fit(x, y, **kwargs)

    def predict(self, x, **kwargs):
        """The predicted labels (values of `classes_`)."""
        arguments = self.filter_sk_params(_model_calls()["predict_classes"], kwargs)
        return self.classes_[self.model.predict_classes(x, **arguments)]

    def predict_proba(self, x, **kwargs):
        """The probability of each class; a single sigmoid output gives two columns."""
        arguments = self.filter_sk_params(_model_calls()["predict_proba"], kwargs)
        probabilities = self.model.predict_proba(x, **arguments)
        if probabilities.shape[1] == 1:
            probabilities = np.hstack([1 - probabilities, probabilities])
        return probabilities

    def score(self, x, y, **kwargs):
        """The model's accuracy on (x, y)."""
        y = np.searchsorted(self.classes_, y)
        arguments = self.filter_sk_params(_model_calls()["evaluate"], kwargs)
        loss = getattr(self.model.loss, "__name__", self.model.loss)
        if loss == "categorical_crossentropy" and len(np.shape(y)) != 2:
            y = _keras("utils").to_categorical(y)
        outputs = self.model.evaluate(x, y, **arguments)
        outputs = outputs if isinstance(outputs, list) else [outputs]
        for name, value in zip(self.model.metrics_names, outputs):
            if name in ("accuracy", "acc"):
                return value
        raise ValueError("The model is not configured to compute accuracy. You should pass "
                         "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


class KerasRegressor(BaseWrapper):
    """A scikit-learn regressor over a Keras model built by `build_fn`."""

    _estimator_type = "regressor"

    def predict(self, x, **kwargs):
        arguments = self.filter_sk_params(_model_calls()["predict"], kwargs)
        return np.squeeze(self.model.predict(x, **arguments))

    def score(self, x, y, **kwargs):
        """The negated loss on (x, y): scikit-learn takes the higher score as the better."""
        arguments = self.filter_sk_params(_model_calls()["evaluate"], kwargs)
        loss = self.model.evaluate(x, y, **arguments)
        return -loss[0] if isinstance(loss, list) else -loss
