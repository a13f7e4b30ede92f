"""The single-device training loop: the baseline every distributed way must match.

TF1: a session, placeholders and `GradientDescentOptimizer`, batch by batch.
TF2: a Keras model and a `tf.GradientTape` step in a `tf.function`.
"""

from __future__ import annotations

from examples import common, mlp

NAME = "baseline_loop"
TITLE = "single-device training loop"


def tf1(settings: common.Settings) -> dict:
    return mlp.train_tf1(settings, towers_count=1)


def tf2(settings: common.Settings) -> dict:
    return mlp.train_baseline(settings)


agree = mlp.agree_training

if __name__ == "__main__":
    common.main(__spec__.name)
