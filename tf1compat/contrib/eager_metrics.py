"""`tf.contrib.eager.metrics`: TF 1.15's stateful metrics (Mean and the accuracies).

TF 2.21 has no such module (`tf.keras.metrics` differ: float32 by default,
`update_state`, no returned inputs), so the TF1 behaviour is written here:
each metric holds two non-trainable resource variables, `numer` and `denom`
(float64 unless told), made on the first call; a call adds to them and
returns its inputs for chaining (Mean: the summed values); `result()` is
numer / denom; `init_variables()` resets them.

In graph mode TF1 compiled `call` into a graph function so that running
what `__call__` returned ran the updates; here the returned tensors carry
the updates as control dependencies, so `sess.run(m(x))` updates the same
way, and the variables sit in LOCAL_VARIABLES and METRIC_VARIABLES as in
TF1. `result(write_summary=...)` writes no summary (contrib.summary, which
it fed, is gone from TF 2.21).
"""

from __future__ import annotations

import re

import tensorflow as tf
from tensorflow.python.eager import context
from tensorflow.python.ops import resource_variable_ops

__all__ = ["Metric", "Mean", "Accuracy", "CategoricalAccuracy", "BinaryAccuracy",
           "SparseAccuracy"]

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^A-Za-z0-9_.\-/]")


class Metric:
    """TF1's base: `build()` makes the variables, `call()` updates them, `result()` reads them."""

    def __init__(self, name=None, use_global_variables=False):
        self._built = False
        self._vars: list = []
        self._initial_values: dict = {}
        self._use_global_variables = use_global_variables
        self._name = name or self.__class__.__name__
        self._scope = _INVALID_SCOPE_CHARACTERS.sub("_", self._name)
        self._updates: list = []

    def __call__(self, *args, **kwargs):
        if not self._built:
            with tf.compat.v1.name_scope(self._scope):
                self.build(*args, **kwargs)
            self._built = True
        self._updates = []
        outputs = self.call(*args, **kwargs)
        if context.executing_eagerly() or not self._updates:
            return outputs
        with tf.control_dependencies(self._updates):  # running the outputs runs the updates
            return tf.nest.map_structure(tf.identity, outputs)

    @property
    def name(self) -> str:
        return self._name

    @property
    def variables(self) -> list:
        return self._vars

    def init_variables(self):
        """Resets the variables: at once in eager (returns None), as an op in graph mode."""
        if context.executing_eagerly():
            for variable in self._vars:
                variable.assign(self._initial_values[id(variable)])
            return None
        return tf.group([variable.initializer for variable in self._vars])

    def build(self, *args, **kwargs):
        raise NotImplementedError("Metrics must define a build() member function")

    def call(self, *args, **kwargs):
        raise NotImplementedError("Metrics must define a call() member function")

    def result(self):
        raise NotImplementedError("Metrics must define a result() member function")

    def value(self):
        """The `result` method in eager, the result tensor in graph mode (as TF1)."""
        return self.result if context.executing_eagerly() else self.result()

    def aggregate(self, metrics) -> None:
        """Adds the variables of `metrics` (metrics of the same type) into this one's."""
        for metric in metrics:
            if type(self) != type(metric):  # noqa: E721 - TF1 compares exact types
                raise TypeError(f"All metrics must be the same type, '{type(self)}' != "
                                f"'{type(metric)}'.")
        for index, variable in enumerate(self._vars):
            self._assign_add(variable, tf.add_n([metric._vars[index] for metric in metrics]))

    def add_variable(self, name, shape=None, dtype=None, initializer=None):
        """A non-trainable resource variable of this metric (only from `build()`)."""
        if self._built:
            raise RuntimeError("Can't call add_variable() except in build().")
        collections = None
        if not context.executing_eagerly():
            collections = [tf.compat.v1.GraphKeys.GLOBAL_VARIABLES if self._use_global_variables
                           else tf.compat.v1.GraphKeys.LOCAL_VARIABLES,
                           tf.compat.v1.GraphKeys.METRIC_VARIABLES]
        initializer = initializer or tf.compat.v1.zeros_initializer
        if isinstance(initializer, type):
            initializer = initializer()
        variable = resource_variable_ops.ResourceVariable(
            lambda: initializer(shape or (), dtype=dtype), name=name, dtype=dtype,
            trainable=False, collections=collections)
        self._vars.append(variable)
        if context.executing_eagerly():
            self._initial_values[id(variable)] = variable.value()
        return variable

    def _assign_add(self, variable, value) -> None:
        self._updates.append(variable.assign_add(value))


class Mean(Metric):
    """The (weighted) mean of the values passed."""

    def __init__(self, name=None, dtype=tf.float64, use_global_variables=False):
        super().__init__(name=name, use_global_variables=use_global_variables)
        self.dtype = dtype

    def build(self, *args, **kwargs):
        del args, kwargs
        self.numer = self.add_variable("numer", (), self.dtype)
        self.denom = self.add_variable("denom", (), self.dtype)

    def call(self, values, weights=None):
        """Adds `values` (weighted by `weights`); returns the summed values (and the weights)."""
        if weights is None:
            self._assign_add(self.denom, tf.cast(tf.size(values), self.dtype))
            values = tf.reduce_sum(values)
            self._assign_add(self.numer, tf.cast(values, self.dtype))
            return values
        weights = tf.cast(weights, self.dtype)
        self._assign_add(self.denom, tf.reduce_sum(weights))
        values = tf.cast(values, self.dtype) * weights
        self._assign_add(self.numer, tf.reduce_sum(values))
        return values, weights

    def result(self, write_summary=True):
        del write_summary  # contrib.summary, which TF1 fed here, is not in TF 2.21
        return self.numer / self.denom


class _Matches(Mean):
    """An accuracy: the mean of (label == prediction) after `_compare` prepares both."""

    def __init__(self, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)

    def _compare(self, labels, predictions):
        raise NotImplementedError

    def call(self, labels, predictions, weights=None):
        labels, predictions = self._compare(labels, predictions)
        matches = tf.cast(tf.equal(labels, predictions), self.dtype)
        super().call(matches, weights=weights)
        if weights is None:
            return labels, predictions
        return labels, predictions, weights

    def _same_shape(self, labels, predictions, message="Shapes of labels and predictions are "
                                                       "unequal"):
        check = tf.compat.v1.assert_equal(tf.shape(labels), tf.shape(predictions), message=message)
        if check is not None:
            self._updates.append(check)


class Accuracy(_Matches):
    """How often `predictions` equals `labels` (same shape and type)."""

    def _compare(self, labels, predictions):
        self._same_shape(labels, predictions)
        return labels, predictions


class CategoricalAccuracy(_Matches):
    """How often argmax(predictions) equals argmax(labels) (one-hot labels)."""

    def _compare(self, labels, predictions):
        self._same_shape(labels, predictions)
        return tf.argmax(labels, axis=-1), tf.argmax(predictions, axis=-1)


class BinaryAccuracy(_Matches):
    """How often (predictions > threshold) equals the 0/1 labels."""

    def __init__(self, threshold, name=None, dtype=tf.float64):
        super().__init__(name=name, dtype=dtype)
        self.threshold = threshold

    def _compare(self, labels, predictions):
        self._same_shape(labels, predictions)
        predictions = tf.convert_to_tensor(predictions) > self.threshold
        return tf.cast(labels, tf.bool), predictions


class SparseAccuracy(_Matches):
    """How often argmax(predictions) equals the integer labels."""

    def _compare(self, labels, predictions):
        check = tf.compat.v1.assert_equal(tf.shape(labels), tf.shape(predictions)[0],
                                          message="First axis of labels and predictions is "
                                                  "unequal")
        if check is not None:
            self._updates.append(check)
        return tf.cast(labels, tf.int64), tf.argmax(predictions, axis=-1)
