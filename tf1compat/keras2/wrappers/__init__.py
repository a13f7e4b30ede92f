"""Keras 2's `keras.wrappers` (TF 1.15's `tf.keras.wrappers`): its `scikit_learn` module."""

from tf1compat.keras2.wrappers import scikit_learn

__all__ = ["scikit_learn"]
