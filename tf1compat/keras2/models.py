"""Keras 2's `Sequential`, with the two methods tf_keras dropped (TF 2.6 removed them).

Keras 2.0-2.3 tutorials end with `model.predict_classes(x)` or `model.predict_proba(x)`;
tf_keras's `Sequential` has neither. This subclass adds them with Keras 2.3's behaviour:
`predict_classes` is the arg-max of the last axis when it has more than one unit, else the
output thresholded at 0.5 as int32; `predict_proba` is `predict`, with Keras 2's warning when
the outputs are not probabilities. Saved models keep the class name `Sequential`.
"""

from __future__ import annotations

import importlib
import types
import warnings

from tf1compat.keras2 import V1_KERAS

_models = importlib.import_module(V1_KERAS + ".models")


class Sequential(_models.Sequential):
    __doc__ = _models.Sequential.__doc__

    def predict_proba(self, x, batch_size=32, verbose=0):
        probabilities = self.predict(x, batch_size=batch_size, verbose=verbose)
        if probabilities.min() < 0.0 or probabilities.max() > 1.0:
            warnings.warn("Network returning invalid probability values. The last layer might "
                          "not normalize predictions into probabilities (like softmax or "
                          "sigmoid would).", stacklevel=2)
        return probabilities

    def predict_classes(self, x, batch_size=32, verbose=0):
        probabilities = self.predict(x, batch_size=batch_size, verbose=verbose)
        if probabilities.shape[-1] > 1:
            return probabilities.argmax(axis=-1)
        return (probabilities > 0.5).astype("int32")


def names() -> types.SimpleNamespace:
    """The names of this module that Keras 2's `keras` and `keras.models` read first."""
    space = types.SimpleNamespace(Sequential=Sequential)
    space.__name__ = "keras.models"
    return space
