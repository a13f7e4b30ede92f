"""Towers, the TF2 way: the same names as `tf1compat.towers`, run as `tf.function`s.

`replicate`, `sum_on` and `average_gradients` build ops under `tf.device`, so
they work inside any `tf.function` (and eagerly). `matmul_towers` and
`TowerTrainer` are ready-made functions over logical devices: split the CPU
with `modern.devices.split_cpu(n)` to run them on a machine without GPUs.

A device that does not exist is a `DeviceError` listing those that do,
unless soft placement is on; then TF falls back and `modern.placement.run`
shows where each op really ran.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tf1compat.shared.device_errors import tf2_checked
from tf1compat.shared.towers import mean_of_present, replicate, split_batch, sum_on

__all__ = ["replicate", "sum_on", "matmul_towers", "average_gradients", "TowerTrainer",
           "split_batch"]


def matmul_towers(a: Any, b: Any, devices: Sequence[str], reduce_device: str = "/cpu:0") -> Any:
    """The seed in TF2: `a @ b` on every device, summed with `add_n` on `reduce_device`."""
    import tensorflow as tf

    @tf.function
    def towers(a, b):
        products = replicate(lambda index, device: tf.matmul(a, b, name="product"), devices)
        return sum_on(products, reduce_device)

    return tf2_checked(towers)(a, b)


def average_gradients(tower_grads: Sequence[Sequence[Any]]) -> list[Any]:
    """Averages per-tower gradient lists (same variables, same order) element-wise."""
    return [mean_of_present(grads) for grads in zip(*tower_grads)]


class TowerTrainer:
    """The multi-tower training step of `tf1compat.towers.tower_train_step`, for TF2.

    Each step splits the batch over the devices, computes each tower's loss
    and gradients under `tf.device`, averages the gradients on
    `variable_device` and applies them once to the shared variables.

    Args:
      loss_fn: `loss_fn(inputs) -> scalar loss`, reading `variables`.
      variables: the shared variables (created once, e.g. on the CPU).
      optimizer: a Keras optimizer.
      devices: one device per tower.
      variable_device: where the averaging and the update run.
    """

    def __init__(self, loss_fn: Callable[[Any], Any], variables: Sequence[Any], optimizer: Any,
                 devices: Sequence[str], variable_device: str = "/cpu:0"):
        import tensorflow as tf

        self.loss_fn = loss_fn
        self.variables = list(variables)
        self.optimizer = optimizer
        self.devices = list(devices)
        self.variable_device = variable_device
        self._step = tf2_checked(tf.function(self._train_step))

    def _train_step(self, tower_inputs):
        import tensorflow as tf

        def tower(index, device):
            with tf.GradientTape() as tape:
                loss = self.loss_fn(tower_inputs[index])
            return loss, tape.gradient(loss, self.variables)

        results = replicate(tower, self.devices)
        with tf.device(self.variable_device):
            averaged = average_gradients([grads for _, grads in results])
            self.optimizer.apply_gradients(zip(averaged, self.variables))
            return tf.math.truediv(tf.add_n([loss for loss, _ in results]),
                                   float(len(results)), name="mean_loss")

    def step(self, tower_inputs: Sequence[Any]) -> Any:
        """Runs one step on one input per tower; returns the mean tower loss."""
        if len(tower_inputs) != len(self.devices):
            raise ValueError(f"TowerTrainer.step needs one input per device; received "
                             f"{len(tower_inputs)} inputs for devices={self.devices}")
        return self._step(tuple(tower_inputs))
