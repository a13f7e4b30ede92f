"""The custom distributed training loop, against its TF1 counterpart: multi-tower training.

TF2, written for TF 2.21 + Keras 3: per-example loss (`reduction=None`),
`tf.nn.compute_average_loss` with the global batch size, `strategy.run`,
`strategy.reduce(SUM)`, a distributed dataset, and metrics reset per epoch
with `reset_state()`.
TF1: two towers with gradients averaged on the CPU.
"""

from __future__ import annotations

from examples import common, mlp

NAME = "custom_training_loop"
TITLE = "custom loop: strategy.run + compute_average_loss"


def tf1(settings: common.Settings) -> dict:
    return mlp.train_tf1(settings, towers_count=2)


def tf2(settings: common.Settings) -> dict:
    return mlp.train_custom(settings, mlp.two_device_strategy("mirrored"))


agree = mlp.agree_training

if __name__ == "__main__":
    common.main(__spec__.name)
