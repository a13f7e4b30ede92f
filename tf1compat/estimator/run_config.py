"""`RunConfig` whose `session_config` goes through tf1compat's option checks.

An Estimator opens its sessions with `RunConfig.session_config`, a TF1
`ConfigProto`. Here that value is read as `SessionOptions` first, so a wrong
value fails at `RunConfig(...)` with the option, the value and what is
accepted (as `tf1compat.session` does), not deep inside `train()`; and its
GPU options are recorded process-wide, since TensorFlow keeps the first
session's GPU options for the whole process. With `train_distribute` /
`eval_distribute` the session gets the CPUs the strategy names (`distribute`).
"""

from __future__ import annotations

import inspect
from typing import Any

from tf1compat.compat_session import process_gpu_options
from tf1compat.shared.errors import OptionError, UnmappedConfigError
from tf1compat.estimator import loader
from tf1compat.estimator.distribute import session_config_for
from tf1compat.estimator.errors import EstimatorError
from tf1compat.shared.options import SessionOptions

_library = loader.v1_api()


def checked_session_config(session_config: Any) -> Any:
    """The ConfigProto for `session_config`, after tf1compat's checks; None stays None.

    Accepts a `tf.compat.v1.ConfigProto` (returned as given, so fields without
    a tf1compat keyword keep working), a `SessionOptions`, or a ConfigProto's
    serialized bytes or text format.

    Raises:
      EstimatorError: a value the option table rejects, naming the option.
    """
    if session_config is None:
        return None
    import tensorflow as tf

    try:
        options = SessionOptions.coerce(session_config)
    except (OptionError, UnmappedConfigError) as error:
        raise EstimatorError(f"RunConfig(session_config=...) is rejected: {error}") from None
    process_gpu_options.check(options)
    if isinstance(session_config, tf.compat.v1.ConfigProto):
        return session_config
    return options.to_config_proto()


class RunConfig(_library.RunConfig):
    """TF1's `tf.estimator.RunConfig`; `session_config` is checked as `tf1compat.session` checks it.

    >>> import tensorflow as tf
    >>> config = RunConfig(session_config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
    >>> config.session_config.allow_soft_placement
    True
    """

    def __init__(self, *args: Any, session_config: Any = None, **kwargs: Any):
        session_config = session_config_for(
            (kwargs.get("train_distribute"), kwargs.get("eval_distribute")),
            checked_session_config(session_config), _default_session_config)
        super().__init__(*args, session_config=session_config, **kwargs)

    def replace(self, **kwargs: Any) -> "RunConfig":
        if "session_config" in kwargs:
            kwargs["session_config"] = session_config_for(
                (self.train_distribute, self.eval_distribute),
                checked_session_config(kwargs["session_config"]), _default_session_config)
        return super().replace(**kwargs)


def _default_session_config() -> Any:
    """The ConfigProto an Estimator uses when given none (tensorflow-estimator's default)."""
    from tensorflow_estimator.python.estimator import run_config

    return run_config.get_default_session_config()


# The checks above take *args / **kwargs; what a caller (and `inspect`) sees are the
# library's own parameters, TF 1.x's.
RunConfig.__signature__ = inspect.signature(_library.RunConfig)
