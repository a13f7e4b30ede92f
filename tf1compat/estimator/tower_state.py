"""`TowerOptimizer` and the per-graph record of towers it reads.

`replicate_model_fn` calls the model_fn once per device; each call's
optimizer sees only its own tower. `TowerOptimizer` (TF 1.15's
`tf.contrib.estimator.TowerOptimizer`) scales the tower's loss for the
reduction across towers, hands back a no-op train_op for every tower but the
last, and in the last one sums each variable's gradients from all towers and
applies them once, under the first tower's scopes. What it needs to know
(which tower is being built, how many there are, the gradients so far) lives
in a graph collection, so it is per graph as in TF 1.15; without
`replicate_model_fn` there is one tower and it is a plain optimizer.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator
from tf1compat.shared.lazy_tf import tensorflow as _tf

_COLLECTION = "replicate_model_fn_graph_states"


class TowerState:
    """Which tower is being built, how many there are, and each tower's gradients."""

    def __init__(self):
        self.gradients: dict[int, list[list]] = {}
        self.index = 0
        self.towers = 1
        self.loss_reduction = None
        self.first_scopes: tuple[Any, str] = (None, "")
        self.used = False

    def start(self, loss_reduction: Any, towers: int) -> None:
        self.loss_reduction = loss_reduction
        self.towers = towers

    @contextlib.contextmanager
    def tower(self, index: int, variable_scope: Any, name_scope: str) -> Iterator[None]:
        if index == 0:
            self.first_scopes = (variable_scope, name_scope)
        self.index = index
        yield

    @property
    def is_last(self) -> bool:
        return self.index == self.towers - 1

    def collect(self, grads_and_vars: list) -> None:
        self.gradients.setdefault(self.index, []).append(list(grads_and_vars))

    def latest_from_every_tower(self) -> list:
        """The gradients of this optimizer call (the same call in each tower), tower by tower."""
        call = len(self.gradients[self.index]) - 1
        return [pair for tower in range(self.index + 1) for pair in self.gradients[tower][call]]

    def same_calls_in_every_tower(self) -> bool:
        return sum(len(calls) for calls in self.gradients.values()) % self.towers == 0

    def clear(self) -> None:
        _tf().compat.v1.get_default_graph().clear_collection(_COLLECTION)


def tower_state() -> TowerState:
    """The default graph's TowerState (made on first use)."""
    states = _tf().compat.v1.get_default_graph().get_collection_ref(_COLLECTION)
    if not states:
        states.append(TowerState())
    return states[-1]


def scaled_loss(loss: Any, loss_reduction: Any, towers: int) -> Any:
    """The loss divided by the number of towers, unless there is one or the reduction is SUM."""
    tf = _tf()
    if loss is None or towers == 1 or loss_reduction == tf.compat.v1.losses.Reduction.SUM:
        return loss
    return tf.compat.v1.div(loss, 1.0 * towers, name="averaged_loss")


def sum_on(values: list, device: str, name: Any = None) -> Any:
    """The sum of the towers' values on `device`: add_n, or IndexedSlices concatenated."""
    tf = _tf()
    with tf.compat.v1.device(device):
        if isinstance(values[0], tf.IndexedSlices):
            return tf.IndexedSlices(tf.concat([value.values for value in values], axis=0),
                                    tf.concat([value.indices for value in values], axis=0),
                                    values[0].dense_shape)
        return tf.math.add_n(values, name=name)


def _optimizer_base():
    return _tf().compat.v1.train.Optimizer


class TowerOptimizer(_optimizer_base()):
    """TF 1.15's `tf.contrib.estimator.TowerOptimizer`: gradients of all towers, applied once.

    Args:
      optimizer_or_optimizer_fn: a `tf.compat.v1.train.Optimizer`, or a function of no
        arguments returning one (called on first use).
    """

    COLLECTION_FOR_GRAPH_STATES = _COLLECTION

    def __init__(self, optimizer_or_optimizer_fn: Any):
        # The wrapped optimizer does the work: no state of our own (TF 1.15 made none either).
        self._optimizer_or_optimizer_fn = optimizer_or_optimizer_fn

    @staticmethod
    def has_been_used() -> bool:
        return tower_state().used

    def _get_optimizer(self) -> Any:
        if callable(self._optimizer_or_optimizer_fn):
            self._optimizer_or_optimizer_fn = self._optimizer_or_optimizer_fn()
        tower_state().used = True
        return self._optimizer_or_optimizer_fn

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._get_optimizer().get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
        return self._get_optimizer().get_slot_names(*args, **kwargs)

    def get_name(self, *args: Any, **kwargs: Any) -> Any:
        return self._get_optimizer().get_name(*args, **kwargs)

    def variables(self, *args: Any, **kwargs: Any) -> Any:
        return self._get_optimizer().variables(*args, **kwargs)

    def compute_gradients(self, loss: Any, *args: Any, **kwargs: Any) -> list:
        state = tower_state()
        return self._get_optimizer().compute_gradients(
            scaled_loss(loss, state.loss_reduction, state.towers), *args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        **kwargs: Any) -> Any:
        tf = _tf()
        state = tower_state()
        if state.towers == 1:
            return self._get_optimizer().apply_gradients(grads_and_vars, global_step, **kwargs)
        grads_and_vars = list(grads_and_vars)
        state.collect(grads_and_vars)
        if not state.is_last:
            # This tower's gradients are computed when the last tower's update runs.
            tensors = [grad.values if isinstance(grad, tf.IndexedSlices) else grad
                       for grad, _ in grads_and_vars if grad is not None]
            with tf.control_dependencies(tensors):
                return tf.no_op(name="train_op_placeholder")
        variable_scope, name_scope = state.first_scopes
        with tf.compat.v1.variable_scope(variable_scope), tf.compat.v1.name_scope(name_scope):
            return self._apply_summed(state, global_step, **kwargs)

    def _apply_summed(self, state: TowerState, global_step: Any, **kwargs: Any) -> Any:
        tf = _tf()
        optimizer = self._get_optimizer()
        per_variable: dict[Any, tuple[Any, list]] = {}  # by var.ref(): TF2 variables are unhashable
        for grad, var in state.latest_from_every_tower():
            if grad is not None:
                per_variable.setdefault(var.ref(), (var, []))[1].append(grad)
        with tf.compat.v1.name_scope("gradient_aggregating"):
            summed = [(sum_on(grads, var.device), var) for var, grads in per_variable.values()]
        return optimizer.apply_gradients(summed, global_step=global_step, **kwargs)
