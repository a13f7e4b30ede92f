"""`tf.contrib.layers.batch_norm`, on `tf.compat.v1` (graph mode).

Contract (TF 1.15, the common arguments, checked against TF 1.15 itself by
tests/tf1_reference): normalises over every axis but the channel one (the
last; axis 1 with data_format='NCHW'). Model variables under the scope
(default 'BatchNorm'): `beta` (center=True), `gamma` (scale=True; the default
scale=False uses 1), `moving_mean` and `moving_variance` (not trainable, and,
as in TF 1.15, in no MOVING_AVERAGE_VARIABLES collection). TF 1.15 creates
them in the order of the code path it takes: its fused function (rank 2, or
rank 4 with other update collections) makes beta before gamma; the core
layer it uses otherwise (update ops in UPDATE_OPS) makes gamma before beta.
Training (`is_training`, a bool or a boolean tensor) uses the batch's
statistics and adds the updates `moving = moving - (1 - decay) * (moving -
batch)` to `updates_collections` (UPDATE_OPS; None runs them with the
output); inference uses the moving statistics. Rank-2 and rank-4 inputs go
through the fused kernel unless fused=False, as TF 1.x did by default, so the
moving variance gets the batch variance with Bessel's correction; other ranks
use the plain batch variance.
"""

from __future__ import annotations

from tf1compat.contrib.arg_scope import add_arg_scope
from tf1compat.contrib.framework import model_variable
from tf1compat.contrib.layer_utils import collect_named_outputs
from tf1compat.contrib.layer_utils import get_variable_collections as _variable_collections

_UPDATE_OPS = "update_ops"  # tf.GraphKeys.UPDATE_OPS, TF 1.x's default


def _unsupported(**given) -> None:
    for name, value in given.items():
        if value:
            raise ValueError(f"batch_norm({name}=...) is not served by tf1compat. Use "
                             "tf.compat.v1.layers.batch_normalization (legacy Keras) for it")


@add_arg_scope
def batch_norm(inputs, decay=0.999, center=True, scale=False, epsilon=0.001, activation_fn=None,
               param_initializers=None, param_regularizers=None,
               updates_collections=_UPDATE_OPS, is_training=True, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               batch_weights=None, fused=None, data_format="NHWC",
               zero_debias_moving_mean=False, scope=None, renorm=False, renorm_clipping=None,
               renorm_decay=0.99, adjustment=None):
    """Batch normalisation with moving statistics (see the module docstring)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    _unsupported(batch_weights=batch_weights is not None, renorm=renorm,
                 zero_debias_moving_mean=zero_debias_moving_mean,
                 adjustment=adjustment is not None)
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format has to be either NCHW or NHWC; received {data_format!r}")
    initializers = param_initializers or {}
    regularizers = param_regularizers or {}
    with v1.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        rank = inputs.shape.ndims
        if rank is None or rank < 2:
            raise ValueError(f"Inputs to batch_norm must have a known rank of at least 2; "
                             f"received shape {inputs.shape}")
        channel_axis = 1 if data_format == "NCHW" else rank - 1
        channels = inputs.shape[channel_axis]
        if channels is None:
            raise ValueError(f"the channel dimension must be known; received shape "
                             f"{inputs.shape}")
        dtype = inputs.dtype.base_dtype
        shape = [int(channels)]

        def param(name, default, trainable_param):
            collections = list(_variable_collections(variables_collections, name) or [])
            return model_variable(name, shape=shape, dtype=dtype,
                                  initializer=initializers.get(name, default),
                                  regularizer=regularizers.get(name),
                                  collections=collections, trainable=trainable_param)

        # TF 1.15's core-layer path (update ops in UPDATE_OPS, not its rank-2 fused function)
        # creates gamma before beta; the order shows in every variable collection.
        core_layer = (updates_collections == v1.GraphKeys.UPDATE_OPS
                      and not (rank == 2 and fused is not False))
        order = ("gamma", "beta") if core_layer else ("beta", "gamma")
        made = {}
        for name in order:
            if name == "beta" and center:
                made[name] = param("beta", v1.zeros_initializer(), trainable)
            elif name == "gamma" and scale:
                made[name] = param("gamma", v1.ones_initializer(), trainable)
        beta, gamma = made.get("beta"), made.get("gamma")
        moving_mean = param("moving_mean", v1.zeros_initializer(), False)
        moving_variance = param("moving_variance", v1.ones_initializer(), False)
        offset = beta if beta is not None else tf.zeros(shape, dtype)
        factor = gamma if gamma is not None else tf.ones(shape, dtype)

        def normalize(training: bool):
            return _normalize(tf, inputs, rank, channel_axis, data_format, factor, offset,
                              moving_mean, moving_variance, epsilon, training,
                              fused is not False)

        if isinstance(is_training, bool):
            outputs, mean, variance = normalize(is_training)
            updates = _updates(v1, moving_mean, moving_variance, mean, variance,
                               decay) if is_training else []
        else:
            training = tf.cast(is_training, tf.bool)
            outputs, mean, variance = tf.cond(training, lambda: normalize(True),
                                              lambda: normalize(False))
            updates = _updates(v1, moving_mean, moving_variance, mean, variance, decay,
                               when=training)
        if updates:
            if updates_collections is None:
                with tf.control_dependencies(updates):
                    outputs = tf.identity(outputs)
            else:
                for update in updates:
                    v1.add_to_collections(updates_collections, update)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


def _normalize(tf, inputs, rank, channel_axis, data_format, gamma, beta, moving_mean,
               moving_variance, epsilon, training, fusable):
    """(outputs, mean used, variance used): batch statistics when training, else moving ones."""
    v1 = tf.compat.v1
    if rank in (2, 4) and fusable:
        x = tf.reshape(inputs, [-1, 1, 1, inputs.shape[-1]]) if rank == 2 else inputs
        fmt = "NHWC" if rank == 2 else data_format
        if training:
            y, mean, variance = v1.nn.fused_batch_norm(x, gamma, beta, epsilon=epsilon,
                                                       data_format=fmt, is_training=True)
        else:
            y, mean, variance = v1.nn.fused_batch_norm(x, gamma, beta, mean=moving_mean,
                                                       variance=moving_variance,
                                                       epsilon=epsilon, data_format=fmt,
                                                       is_training=False)
        y = tf.reshape(y, tf.shape(inputs)) if rank == 2 else y
        y.set_shape(inputs.shape)
        return y, mean, variance
    axes = [axis for axis in range(rank) if axis != channel_axis]
    broadcast = [1] * rank
    broadcast[channel_axis] = -1
    if training:
        mean, variance = tf.nn.moments(inputs, axes)
    else:
        mean, variance = tf.identity(moving_mean), tf.identity(moving_variance)
    y = tf.nn.batch_normalization(inputs, tf.reshape(mean, broadcast),
                                  tf.reshape(variance, broadcast), tf.reshape(beta, broadcast),
                                  tf.reshape(gamma, broadcast), epsilon)
    return y, mean, variance


def _updates(v1, moving_mean, moving_variance, mean, variance, decay, when=None) -> list:
    """moving -= (1 - decay) * (moving - batch), for the mean and the variance."""
    updates = []
    for moving, batch in ((moving_mean, mean), (moving_variance, variance)):
        def update(moving=moving, batch=batch):
            return v1.assign_sub(moving, (moving - batch) * (1.0 - decay))

        if when is None:
            updates.append(update())
        else:
            updates.append(v1.cond(when, update, lambda moving=moving: v1.identity(moving)))
    return updates
