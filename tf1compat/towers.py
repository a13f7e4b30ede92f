"""Towers, the TF1 way: one copy of a computation per device, combined on the CPU.

The seed's pattern: build the same ops under `tf.device('/gpu:i')` for each
device and sum the results with `tf.add_n` on `/cpu:0`; and the classic
synchronous multi-tower training step (one tower per device, variables kept
once on the CPU and shared by every tower, gradients averaged on the CPU,
one update). `modern.towers` has the same functions for TF2 code.

All of these build graph ops: call them inside `tf1compat.session(...)`.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tf1compat.shared.towers import mean_of_present, replicate, split_batch, sum_on
from tf1compat.shared.lazy_tf import tensorflow as _tf

__all__ = ["replicate", "sum_on", "matmul_towers", "average_gradients", "tower_train_step",
           "split_batch", "VARIABLE_OP_TYPES"]

# Ops that hold variable state: the multi-tower step keeps them on one device.
VARIABLE_OP_TYPES = frozenset({"Variable", "VariableV2", "VarHandleOp", "AutoReloadVariable",
                               "MutableHashTable", "MutableHashTableV2", "MutableDenseHashTable"})


def matmul_towers(a: Any, b: Any, devices: Sequence[str], reduce_device: str = "/cpu:0") -> Any:
    """The seed: `a @ b` on every device, summed with `add_n` on `reduce_device`.

    Each tower's product is named `tower_{i}/product`; the sum is `sum`.
    """
    tf = _tf()
    products = replicate(lambda index, device: tf.matmul(a, b, name="product"), devices)
    return sum_on(products, reduce_device)


def average_gradients(tower_grads: Sequence[Sequence[tuple[Any, Any]]]) -> list[tuple[Any, Any]]:
    """Averages (gradient, variable) lists, one list per tower, variable by variable.

    Every tower must list the same variables in the same order (they share them).
    """
    return [(mean_of_present([grad for grad, _ in pairs]), pairs[0][1])
            for pairs in zip(*tower_grads)]


def _variables_on(variable_device: str, compute_device: str) -> Callable:
    """A device function: variable ops on `variable_device`, every other op on `compute_device`."""

    def choose(op):
        return variable_device if op.type in VARIABLE_OP_TYPES else compute_device

    return choose


def tower_train_step(loss_fn: Callable[[Any], Any], optimizer: Any,
                     tower_inputs: Sequence[Any], devices: Sequence[str],
                     variable_device: str = "/cpu:0", global_step: Any = None):
    """The classic synchronous multi-tower training step.

    Args:
      loss_fn: `loss_fn(inputs) -> scalar loss`; creates its variables with
        `tf.compat.v1.get_variable` (they are created by the first tower and
        reused by the others).
      optimizer: a `tf.compat.v1.train.Optimizer`.
      tower_inputs: one input structure per device (e.g. batch shards).
      devices: one device per tower, e.g. ['/gpu:0', '/gpu:1'].
      variable_device: where the shared variables live.
      global_step: optional step variable for `apply_gradients`.

    Returns:
      (train_op, mean loss over towers, list of tower losses).
    """
    tf = _tf()
    if len(tower_inputs) != len(devices):
        raise ValueError(f"tower_train_step needs one input per device; received "
                         f"{len(tower_inputs)} inputs for devices={list(devices)}")
    tower_grads, losses = [], []
    with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(),
                                     reuse=tf.compat.v1.AUTO_REUSE):
        for index, (device, inputs) in enumerate(zip(devices, tower_inputs)):
            with tf.compat.v1.device(_variables_on(variable_device, device)), \
                    tf.name_scope(f"tower_{index}"):
                loss = loss_fn(inputs)
                tower_grads.append(optimizer.compute_gradients(loss))
                losses.append(loss)
    with tf.device(variable_device):
        averaged = average_gradients(tower_grads)
        train_op = optimizer.apply_gradients(averaged, global_step=global_step)
        mean_loss = tf.math.truediv(tf.add_n(losses), float(len(losses)), name="mean_loss")
    return train_op, mean_loss, losses



