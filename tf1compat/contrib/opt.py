"""`tf.contrib.opt`: the optimizers TF1 scripts used most, as `tf.compat.v1.train.Optimizer`s.

TF 2.21 has no v1 home for them (TensorFlow's upgrade table points to
TensorFlow Addons, which has no release for TF 2.21), so each is written
here on `tf.compat.v1.train.AdamOptimizer` / `MomentumOptimizer`, following
TF 1.15's update rules, slot names and default names (so checkpoints keep
their variable names: `w/Adam`, `w/Adam_1`, `beta1_power` for LazyAdam and
Nadam, which kept Adam's name; `w/AdamW`, `w/MomentumW`, `w/LARSOptimizer`):

- `LazyAdamOptimizer`: Adam on dense gradients; on sparse ones (an
  `embedding_lookup`) it updates `m`, `v` and the variable only at the rows
  the gradient names (Adam decays every row).
- `NadamOptimizer`: Adam with Nesterov momentum (TensorFlow's ApplyAdam kernel
  with use_nesterov=True; sparse: `m_bar = (1 - beta1) g + beta1 m_t`).
- `LARSOptimizer`: momentum with a layer-wise trust ratio
  `eeta * |w| / (|g| + weight_decay * |w| + epsilon)` and weight decay added
  to the gradient; sparse gradients fall back to plain momentum, as TF 1.15's.
- `AdamWOptimizer`, `MomentumWOptimizer`, `extend_with_decoupled_weight_decay`
  (in `tf1compat.contrib.opt_weight_decay`): the decay `w -= weight_decay * w`
  runs before each update.

`ScipyOptimizerInterface` and the rest of contrib.opt are not served; the
table's note names what to use.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from tf1compat.contrib.opt_weight_decay import (  # noqa: F401 - contrib.opt's namespace
    AdamWOptimizer, DecoupledWeightDecayExtension, MomentumWOptimizer,
    extend_with_decoupled_weight_decay)

__all__ = ["LazyAdamOptimizer", "NadamOptimizer", "LARSOptimizer", "AdamWOptimizer",
           "MomentumWOptimizer", "DecoupledWeightDecayExtension",
           "extend_with_decoupled_weight_decay"]

_v1 = tf.compat.v1


def _resource_scatter(op):
    """x, i, v -> x's value after `op` (ResourceScatterUpdate / Sub / Add) at rows i."""
    def scatter(x, i, v):
        with tf.control_dependencies([op(resource=x.handle, indices=i, updates=v)]):
            return x.value()
    return scatter


class _AdamRates:
    """The Adam hyper-parameters of one update, cast to the variable's dtype."""

    def __init__(self, optimizer: _v1.train.AdamOptimizer, dtype: tf.DType):
        beta1_power, beta2_power = optimizer._get_beta_accumulators()
        self.beta1_power = tf.cast(beta1_power, dtype)
        self.beta2_power = tf.cast(beta2_power, dtype)
        self.lr = tf.cast(optimizer._lr_t, dtype)
        self.beta1 = tf.cast(optimizer._beta1_t, dtype)
        self.beta2 = tf.cast(optimizer._beta2_t, dtype)
        self.epsilon = tf.cast(optimizer._epsilon_t, dtype)
        # the bias-corrected step size
        self.step = self.lr * tf.sqrt(1 - self.beta2_power) / (1 - self.beta1_power)


class LazyAdamOptimizer(_v1.train.AdamOptimizer):
    """Adam that, for sparse gradients, updates only the rows the gradient touches (TF 1.15's)."""

    def _apply_sparse(self, grad, var):
        return self._lazy_update(grad.values, var, grad.indices,
                                 lambda x, i, v: _v1.scatter_update(x, i, v, self._use_locking),
                                 lambda x, i, v: _v1.scatter_sub(x, i, v, self._use_locking))

    def _resource_apply_sparse(self, grad, var, indices):
        return self._lazy_update(grad, var, indices,
                                 _resource_scatter(tf.raw_ops.ResourceScatterUpdate),
                                 _resource_scatter(tf.raw_ops.ResourceScatterSub))

    def _lazy_update(self, values, var, indices, scatter_update, scatter_sub):
        rates = _AdamRates(self, var.dtype.base_dtype)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = scatter_update(m, indices, rates.beta1 * tf.gather(m, indices)
                             + (1 - rates.beta1) * values)
        v_t = scatter_update(v, indices, rates.beta2 * tf.gather(v, indices)
                             + (1 - rates.beta2) * tf.square(values))
        m_rows, v_rows = tf.gather(m_t, indices), tf.gather(v_t, indices)
        var_update = scatter_sub(var, indices,
                                 rates.step * m_rows / (tf.sqrt(v_rows) + rates.epsilon))
        return tf.group(var_update, m_t, v_t)


class NadamOptimizer(_v1.train.AdamOptimizer):
    """Adam with Nesterov momentum (TF 1.15's contrib.opt.NadamOptimizer)."""

    def _dense(self, grad, var, apply, handles):
        rates = _AdamRates(self, grad.dtype.base_dtype)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        var, m, v = (var.handle, m.handle, v.handle) if handles else (var, m, v)
        return apply(var=var, m=m, v=v, beta1_power=rates.beta1_power,
                     beta2_power=rates.beta2_power, lr=rates.lr, beta1=rates.beta1,
                     beta2=rates.beta2, epsilon=rates.epsilon, grad=grad,
                     use_locking=self._use_locking, use_nesterov=True)

    def _apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ApplyAdam, handles=False).op

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyAdam, handles=True)

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        rates = _AdamRates(self, var.dtype.base_dtype)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_scaled = grad * (1 - rates.beta1)
        m_t = _v1.assign(m, m * rates.beta1, use_locking=self._use_locking)
        with tf.control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled)
            m_bar = m_scaled + rates.beta1 * tf.gather(m_t, indices)
        v_t = _v1.assign(v, v * rates.beta2, use_locking=self._use_locking)
        with tf.control_dependencies([v_t]):
            v_t = scatter_add(v, indices, (grad * grad) * (1 - rates.beta2))
        v_rows = tf.gather(v_t, indices)
        var_update = scatter_add(var, indices,
                                 -rates.step * m_bar / (tf.sqrt(v_rows) + rates.epsilon))
        return tf.group(var_update, m_bar, v_t)


class LARSOptimizer(_v1.train.Optimizer):
    """Layer-wise Adaptive Rate Scaling on momentum (TF 1.15's contrib.opt.LARSOptimizer).

    Raises:
      ValueError: momentum or weight_decay is negative (names the value).
    """

    def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001,
                 epsilon=0.0, name="LARSOptimizer", skip_list=None, use_nesterov=False):
        if momentum < 0.0:
            raise ValueError(f"momentum should be positive: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"weight_decay should be positive: {weight_decay}")
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for var in var_list:
            self._zeros_slot(var, "momentum", self._name)

    def compute_lr(self, grad: Any, var: Any):
        """(the layer's learning rate, the gradient with weight decay added)."""
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(part in var.name for part in self._skip_list):
            w_norm, g_norm = tf.norm(var, ord=2), tf.norm(grad, ord=2)
            trust_ratio = _v1.where(
                tf.greater(w_norm, 0),
                _v1.where(tf.greater(g_norm, 0),
                          self._eeta * w_norm / (g_norm + self._weight_decay * w_norm
                                                 + self._epsilon), 1.0),
                1.0)
            scaled_lr = self._learning_rate * trust_ratio
            grad = grad + self._weight_decay * var
        return scaled_lr, grad

    def _dense(self, grad, var, apply, handles):
        scaled_lr, grad = self.compute_lr(grad, var)
        mom = self.get_slot(var, "momentum")
        var, mom = (var.handle, mom.handle) if handles else (var, mom)
        return apply(var=var, accum=mom, lr=tf.cast(1.0, grad.dtype.base_dtype),
                     grad=grad * scaled_lr, momentum=self._momentum, use_locking=False,
                     use_nesterov=self._use_nesterov)

    def _apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ApplyMomentum, handles=False)

    def _resource_apply_dense(self, grad, var):
        return self._dense(grad, var, tf.raw_ops.ResourceApplyMomentum, handles=True)

    def _sparse(self, values, var, indices, apply, handles):
        dtype = var.dtype.base_dtype
        mom = self.get_slot(var, "momentum")
        target, accum = (var.handle, mom.handle) if handles else (var, mom)
        return apply(var=target, accum=accum, lr=tf.cast(self._learning_rate_tensor, dtype),
                     grad=values, indices=indices,
                     momentum=tf.cast(self._momentum_tensor, dtype),
                     use_locking=self._use_locking, use_nesterov=self._use_nesterov)

    def _apply_sparse(self, grad, var):  # TF 1.15: plain momentum for sparse gradients
        return self._sparse(grad.values, var, grad.indices, tf.raw_ops.SparseApplyMomentum,
                            handles=False).op

    def _resource_apply_sparse(self, grad, var, indices):
        return self._sparse(grad, var, indices, tf.raw_ops.ResourceSparseApplyMomentum,
                            handles=True)

    def _prepare(self):
        learning_rate = self._call_if_callable(self._learning_rate)
        momentum = self._call_if_callable(self._momentum)
        self._learning_rate_tensor = tf.convert_to_tensor(learning_rate, name="learning_rate")
        self._momentum_tensor = tf.convert_to_tensor(momentum, name="momentum")


def __getattr__(name: str) -> Any:
    from tf1compat.contrib import registry

    return registry.attribute("opt", name)
