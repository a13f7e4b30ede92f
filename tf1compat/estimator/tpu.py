"""TF1's `TPUEstimator` family on CPU/GPU: `use_tpu=False` runs it as an Estimator.

Served as `tf.estimator.tpu` and `tf.contrib.tpu` (`TPUEstimator`,
`TPUEstimatorSpec`, `RunConfig`, `TPUConfig`, `InputPipelineConfig`). With
`use_tpu=False`, as BERT's scripts run off a TPU, TPUEstimator is an
Estimator that passes `params['batch_size']` (train, eval or predict batch
size) to the input_fn and model_fn, as on a TPU. Asking for a TPU on a
machine without one fails at construction, saying so, instead of inside
TensorFlow's TPU initialisation.
"""

from __future__ import annotations

import inspect
from typing import Any

from tf1compat.estimator import loader
from tf1compat.estimator.errors import EstimatorError
from tf1compat.estimator.run_config import checked_session_config

_library = loader.v1_api().tpu

InputPipelineConfig = _library.InputPipelineConfig
TPUConfig = _library.TPUConfig
TPUEstimatorSpec = _library.TPUEstimatorSpec
experimental = _library.experimental


class RunConfig(_library.RunConfig):
    """TF1's `tpu.RunConfig`; `session_config` is checked as `tf1compat.estimator.RunConfig` checks it."""

    def __init__(self, *args: Any, session_config: Any = None, **kwargs: Any):
        super().__init__(*args, session_config=checked_session_config(session_config), **kwargs)


def _has_tpu() -> bool:
    import tensorflow as tf

    return bool(tf.config.list_physical_devices("TPU"))  # lists; starts no runtime


class TPUEstimator(_library.TPUEstimator):
    """TF1's `TPUEstimator`; `use_tpu=True` without a TPU is refused by name."""

    def __init__(self, *args: Any, use_tpu: bool = True, **kwargs: Any):
        if use_tpu and not _has_tpu():
            raise EstimatorError(
                "TPUEstimator(use_tpu=True) needs a TPU, and this machine has none "
                "(tf.config.list_physical_devices('TPU') is empty); pass use_tpu=False to "
                "run it as an Estimator on CPU/GPU (params['batch_size'] is still set from "
                "train_batch_size / eval_batch_size / predict_batch_size)")
        super().__init__(*args, use_tpu=use_tpu, **kwargs)


# The checks above take *args / **kwargs; what a caller (and `inspect`) sees are the
# library's own parameters, TF 1.x's.
RunConfig.__signature__ = inspect.signature(_library.RunConfig)
TPUEstimator.__signature__ = inspect.signature(_library.TPUEstimator)
