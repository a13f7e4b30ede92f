"""Keras `fit` under `MirroredStrategy`, against its TF1 counterpart: multi-tower training.

TF1: two towers (one per logical CPU or GPU), gradients averaged on the CPU.
TF2: `MirroredStrategy` over two logical devices, the model built in its scope,
`model.fit` on a `tf.data` pipeline.
"""

from __future__ import annotations

from examples import common, mlp

NAME = "keras_fit_mirrored"
TITLE = "Keras fit under MirroredStrategy"


def tf1(settings: common.Settings) -> dict:
    return mlp.train_tf1(settings, towers_count=2)


def tf2(settings: common.Settings) -> dict:
    return mlp.train_fit(settings, mlp.two_device_strategy("mirrored"))


agree = mlp.agree_training

if __name__ == "__main__":
    common.main(__spec__.name)
