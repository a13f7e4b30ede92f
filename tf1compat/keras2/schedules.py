"""TF 1.15's `tf.keras.experimental.NoisyLinearCosineDecay`, with TF 1.15's parameter order.

tf_keras still defines the schedule (not exported) but put a `seed` parameter before `name`:
a TF1 call that passes `name` by position would give it as the seed. Here `seed` is
keyword-only, after TF 1.15's parameters; everything else is tf_keras's schedule.
"""

from __future__ import annotations

import importlib

_schedules = importlib.import_module("tf_keras.src.optimizers.schedules.learning_rate_schedule")


class NoisyLinearCosineDecay(_schedules.NoisyLinearCosineDecay):
    __doc__ = _schedules.NoisyLinearCosineDecay.__doc__

    def __init__(self, initial_learning_rate, decay_steps, initial_variance=1.0,
                 variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001, name=None, *,
                 seed=None):
        super().__init__(initial_learning_rate, decay_steps, initial_variance=initial_variance,
                         variance_decay=variance_decay, num_periods=num_periods, alpha=alpha,
                         beta=beta, seed=seed, name=name)
