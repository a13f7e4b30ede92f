"""`tf.contrib.layers.layer_norm`, as TF 1.x computed and named it.

Moments over axes `begin_norm_axis ..` (default: all but the batch axis),
`beta` (zeros) and `gamma` (ones) of shape `inputs.shape[begin_params_axis:]`
as model variables under the scope (default 'LayerNorm'), then
`tf.nn.batch_normalization` with epsilon 1e-12 (1e-3 for float16). Keras'
LayerNormalization differs: its epsilon is 1e-3 and its variables are named
otherwise, which checkpoints notice.
"""

from __future__ import annotations

from tf1compat.contrib.arg_scope import add_arg_scope
from tf1compat.contrib.framework import model_variable
from tf1compat.contrib.layer_utils import collect_named_outputs, get_variable_collections


@add_arg_scope
def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
    """Layer normalisation (Ba et al., 2016) with contrib's variables and epsilon.

    Raises:
      ValueError: the rank of `inputs` is unknown, an axis is not below the rank, or
        `inputs.shape[begin_params_axis:]` is not fully defined.
    """
    import tensorflow as tf

    v1 = tf.compat.v1
    with v1.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        shape = inputs.shape
        rank = shape.ndims
        if rank is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank.")
        dtype = inputs.dtype.base_dtype
        if begin_norm_axis < 0:
            begin_norm_axis += rank
        if begin_params_axis >= rank or begin_norm_axis >= rank:
            raise ValueError(f"begin_params_axis ({begin_params_axis}) and begin_norm_axis "
                             f"({begin_norm_axis}) must be < rank(inputs) ({rank})")
        params_shape = shape[begin_params_axis:]
        if not params_shape.is_fully_defined():
            raise ValueError(f"Inputs {inputs.name}: shape(inputs)[{begin_params_axis}:] is "
                             f"not fully defined: {shape}")
        beta = gamma = None
        if center:
            beta = model_variable("beta", shape=params_shape, dtype=dtype,
                                  initializer=v1.zeros_initializer(),
                                  collections=get_variable_collections(variables_collections,
                                                                       "beta"),
                                  trainable=trainable)
        if scale:
            gamma = model_variable("gamma", shape=params_shape, dtype=dtype,
                                   initializer=v1.ones_initializer(),
                                   collections=get_variable_collections(variables_collections,
                                                                        "gamma"),
                                   trainable=trainable)
        mean, variance = v1.nn.moments(inputs, list(range(begin_norm_axis, rank)),
                                       keep_dims=True)
        epsilon = 1e-3 if dtype == tf.float16 else 1e-12
        outputs = tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                            variance_epsilon=epsilon)
        outputs.set_shape(shape)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)
