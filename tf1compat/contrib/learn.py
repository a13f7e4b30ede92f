"""`tf.contrib.learn`: the little of it that outlives its Estimator framework.

`ModeKeys` (the mode names model functions compare against) and the MNIST
reader (`learn.datasets.mnist`, see `tf1compat.tutorials.mnist`) are
served; the rest of contrib.learn (Estimator, Experiment, monitors,
learn_runner) has no successor in TF 2.21, and reading it raises an error
that says so.
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry

__all__ = ["ModeKeys"]


class ModeKeys:
    """contrib.learn's mode names: 'train', 'eval', 'infer' (tf.estimator's PREDICT is 'infer')."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"

    @classmethod
    def validate(cls, key) -> None:
        """Raises ValueError unless `key` is one of the three mode names."""
        if key not in (cls.TRAIN, cls.EVAL, cls.INFER):
            raise ValueError(f"Invalid mode {key}.")


def __getattr__(name: str) -> Any:
    return registry.attribute("learn", name)
