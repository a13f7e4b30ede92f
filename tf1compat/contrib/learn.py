"""`tf.contrib.learn`: TF 1.15's own, run from its source, but for two pieces.

The MNIST reader (`learn.datasets.mnist`, see `tf1compat.tutorials.mnist`) is tf1compat's.
`RunConfig` is TF 1.15's class given the fields tensorflow-estimator added to the core
`RunConfig` it extends since (see `run_config_class`). Everything else (`Estimator`,
`DNNClassifier`, `ModelFnOps`, `ModeKeys`, `Experiment`, `learn_runner`, the monitors) is TF
1.15's own code (`tf1compat.contrib.tf115_code`); a name whose module does not load on TF 2.21
raises an error that says so.
"""

from __future__ import annotations

import functools
from typing import Any

from tf1compat.contrib import registry, tf115_code

__all__ = ["RunConfig"]
_RUN_CONFIG = f"{tf115_code.PREFIX}contrib.learn.python.learn.estimators.run_config.RunConfig"


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
