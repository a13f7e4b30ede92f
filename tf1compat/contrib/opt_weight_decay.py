"""contrib.opt's decoupled weight decay (Loshchilov & Hutter): AdamW, MomentumW, the extension.

As TF 1.15's `DecoupledWeightDecayExtension`: before each variable's update
the variable decays, `w -= weight_decay * w` (on sparse gradients only the
rows the gradient names), and the base optimizer's update then runs as
usual. `weight_decay` is not multiplied by the learning rate; it may be a
callable (read when the update is built). `decay_var_list`, given to
`minimize` or `apply_gradients`, limits the decay to those variables.
"""

from __future__ import annotations

import tensorflow as tf

_v1 = tf.compat.v1

__all__ = ["DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay",
           "AdamWOptimizer", "MomentumWOptimizer"]


class DecoupledWeightDecayExtension:
    """Mixed in before a `tf.compat.v1.train.Optimizer`: decays each variable before its update."""

    def __init__(self, weight_decay, *args, **kwargs):
        self._decay_var_list = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(*args, **kwargs)

    def minimize(self, loss, global_step=None, var_list=None,
                 gate_gradients=_v1.train.Optimizer.GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None,
                 decay_var_list=None):
        self._decay_var_list = list(decay_var_list) if decay_var_list else None
        return super().minimize(loss, global_step=global_step, var_list=var_list,
                                gate_gradients=gate_gradients,
                                aggregation_method=aggregation_method,
                                colocate_gradients_with_ops=colocate_gradients_with_ops,
                                name=name, grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, decay_var_list=None):
        self._decay_var_list = list(decay_var_list) if decay_var_list else None
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _prepare(self):
        weight_decay = self._weight_decay
        if callable(weight_decay):
            weight_decay = weight_decay()
        self._weight_decay_tensor = tf.convert_to_tensor(weight_decay, name="weight_decay")
        super()._prepare()

    def _decays(self, var) -> bool:
        # identity, not ==: graph variables need not be hashable or comparable by value
        return self._decay_var_list is None or any(var is v for v in self._decay_var_list)

    def _decay_weights_op(self, var):
        if not self._decays(var):
            return tf.no_op()
        return var.assign_sub(self._weight_decay_tensor * var, self._use_locking)

    def _decay_weights_sparse_op(self, var, indices, scatter_add):
        if not self._decays(var):
            return tf.no_op()
        return scatter_add(var, indices, -self._weight_decay_tensor * tf.gather(var, indices))

    def _apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_weights_op(var)]):
            return super()._apply_dense(grad, var)

    def _resource_apply_dense(self, grad, var):
        with tf.control_dependencies([self._decay_weights_op(var)]):
            return super()._resource_apply_dense(grad, var)

    def _apply_sparse(self, grad, var):
        decay = self._decay_weights_sparse_op(
            var, grad.indices, lambda x, i, v: _v1.scatter_add(x, i, v, self._use_locking))
        with tf.control_dependencies([decay]):
            return super()._apply_sparse(grad, var)

    def _resource_apply_sparse(self, grad, var, indices):
        def scatter_add(x, i, v):
            with tf.control_dependencies([tf.raw_ops.ResourceScatterAdd(
                    resource=x.handle, indices=i, updates=v)]):
                return x.value()

        with tf.control_dependencies([self._decay_weights_sparse_op(var, indices, scatter_add)]):
            return super()._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer):
    """A subclass of `base_optimizer` (a v1 Optimizer class) taking `weight_decay` first.

    Raises:
      TypeError: base_optimizer is not a tf.compat.v1.train.Optimizer subclass.
    """
    if not (isinstance(base_optimizer, type) and
            issubclass(base_optimizer, _v1.train.Optimizer)):
        raise TypeError(f"extend_with_decoupled_weight_decay(base_optimizer): expected a "
                        f"tf.compat.v1.train.Optimizer subclass; received "
                        f"base_optimizer={base_optimizer!r}")

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        def __init__(self, weight_decay, *args, **kwargs):
            super().__init__(weight_decay, *args, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, _v1.train.MomentumOptimizer):
    """Momentum with decoupled weight decay (slot `momentum`, default name 'MomentumW')."""

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False,
                 name="MomentumW", use_nesterov=False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum,
                         use_locking=use_locking, name=name, use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, _v1.train.AdamOptimizer):
    """Adam with decoupled weight decay (slots `m`, `v`, default name 'AdamW')."""

    def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name="AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                         epsilon=epsilon, use_locking=use_locking, name=name)
