"""`tf.contrib.learn`: the little of it that outlives its Estimator framework.

`ModeKeys` (the mode names model functions compare against) and the MNIST reader
(`learn.datasets.mnist`, see `tf1compat.tutorials.mnist`) are tf1compat's. `RunConfig`,
`Experiment` and `learn_runner` (the experiment loop of Google's 2017-18 estimator tutorials)
are TF 1.15's own, run from its source on tensorflow-estimator's core `RunConfig` (see
`RunConfig` below). contrib.learn's own Estimators, monitors and kernels have no successor in
TF 2.21, and reading one raises an error that says so.
"""

from __future__ import annotations

import functools
from typing import Any

from tf1compat.contrib import registry, tf115_code

__all__ = ["ModeKeys", "RunConfig"]
_RUN_CONFIG = f"{tf115_code.PREFIX}contrib.learn.python.learn.estimators.run_config.RunConfig"


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


@functools.lru_cache(maxsize=1)
def run_config_class() -> type:
    """TF 1.15's `tf.contrib.learn.RunConfig`, with the core RunConfig's defaults of the fields
    tensorflow-estimator added since 1.15 (`_checkpoint_save_graph_def`, ...).

    TF 1.15's `__init__` never called the core class's: it sets the fields the core class had
    then, and the Estimator of tensorflow-estimator 2.15 reads more. The class is TF 1.15's
    own object (the same for `tf.contrib.learn.RunConfig` and its module's path), given each
    missing field's core default as a class attribute, which an instance's own value shadows.
    """
    try:
        tf115 = tf115_code.load(_RUN_CONFIG)
    except ImportError as error:
        raise registry.ContribError("learn.RunConfig", f"TF 1.15's run_config module could not "
                                    f"be loaded: {error}") from None
    core = next(base for base in tf115.__mro__[1:]  # the Estimator's RunConfig it extends
                if base.__name__ == "RunConfig" and "estimator" in base.__module__)
    try:
        defaults = vars(core())  # a default core config's fields (it reads TF_CONFIG)
    except (ValueError, TypeError):  # a TF_CONFIG it refuses: TF 1.15's class as it is
        return tf115
    for name, value in defaults.items():
        if not hasattr(tf115, name):
            setattr(tf115, name, value)
    return tf115


def __getattr__(name: str) -> Any:
    if name == "RunConfig":
        return run_config_class()
    return registry.attribute("learn", name)
