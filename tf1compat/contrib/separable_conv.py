"""`tf.contrib.layers.separable_conv2d` (slim's separable_convolution2d), as TF 1.x built it.

With `num_outputs`: a depthwise kernel `<scope>/depthwise_weights`
[kh, kw, in, depth_multiplier] and a pointwise kernel
`<scope>/pointwise_weights` [1, 1, in * depth_multiplier, num_outputs]
(both Xavier by default, both regularised by `weights_regularizer`), then
`biases` unless a normalizer is given, all model variables (TF 1.x made them
through a layer whose variable getter was slim's). With `num_outputs=None`: only the depthwise
convolution, its `depthwise_weights` and `biases` model variables. Default
scope 'SeparableConv2d', ReLU by default, and `arg_scope` applies.
"""

from __future__ import annotations

import tensorflow as tf

from tf1compat.contrib.arg_scope import add_arg_scope
from tf1compat.contrib.framework import model_variable
from tf1compat.contrib.initializers import xavier_initializer
from tf1compat.contrib.layer_utils import collect_named_outputs, get_variable_collections

# TF 1.x's defaults, the objects its signature shows.
_RELU = tf.nn.relu
_XAVIER = xavier_initializer()
_ZEROS = tf.compat.v1.zeros_initializer()


def _pair(value) -> list[int]:
    return [value, value] if isinstance(value, int) else [int(v) for v in value]


def _layer_variable(name, shape, dtype, initializer, regularizer, trainable, collections):
    """A model variable, as TF 1.x's layer made it through slim's variable getter."""
    return model_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                          regularizer=regularizer, trainable=trainable, collections=collections)


@add_arg_scope
def separable_convolution2d(inputs, num_outputs, kernel_size, depth_multiplier=1, stride=1,
                            padding="SAME", data_format="NHWC", rate=1, activation_fn=_RELU,
                            normalizer_fn=None, normalizer_params=None,
                            weights_initializer=_XAVIER, pointwise_initializer=None,
                            weights_regularizer=None, biases_initializer=_ZEROS,
                            biases_regularizer=None, reuse=None, variables_collections=None,
                            outputs_collections=None, trainable=True, scope=None):
    """A depthwise-separable 2-D convolution (see the module docstring)."""
    v1 = tf.compat.v1
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format has to be either NCHW or NHWC; received {data_format!r}")
    if pointwise_initializer is None:
        pointwise_initializer = weights_initializer
    with v1.variable_scope(scope, "SeparableConv2d", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError(f"separable_conv2d needs inputs of rank 4; received shape "
                             f"{inputs.shape}")
        dtype = inputs.dtype.base_dtype
        channels = int(inputs.shape[1 if data_format == "NCHW" else -1])
        kernel, strides, rates = _pair(kernel_size), _pair(stride), _pair(rate)
        full_strides = [1, 1, *strides] if data_format == "NCHW" else [1, *strides, 1]
        weights = get_variable_collections(variables_collections, "weights")
        if num_outputs is not None:
            depthwise = _layer_variable("depthwise_weights", kernel + [channels, depth_multiplier],
                                        dtype, weights_initializer, weights_regularizer,
                                        trainable, weights)
            pointwise = _layer_variable("pointwise_weights",
                                        [1, 1, channels * depth_multiplier, num_outputs], dtype,
                                        pointwise_initializer, weights_regularizer, trainable,
                                        weights)
            outputs = tf.nn.separable_conv2d(inputs, depthwise, pointwise, full_strides,
                                             padding.upper(), dilations=rates,
                                             data_format=data_format)
            if not normalizer_fn and biases_initializer:
                biases = _layer_variable("biases", [num_outputs], dtype, biases_initializer,
                                         biases_regularizer, trainable,
                                         get_variable_collections(variables_collections,
                                                                  "biases"))
                outputs = tf.nn.bias_add(outputs, biases, data_format=data_format)
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        else:
            depthwise = model_variable("depthwise_weights",
                                       shape=kernel + [channels, depth_multiplier], dtype=dtype,
                                       initializer=weights_initializer,
                                       regularizer=weights_regularizer, trainable=trainable,
                                       collections=weights)
            outputs = v1.nn.depthwise_conv2d(inputs, depthwise, full_strides, padding,
                                             rate=rates, data_format=data_format)
            num_outputs = depth_multiplier * channels
            if normalizer_fn is not None:
                outputs = normalizer_fn(outputs, **(normalizer_params or {}))
            elif biases_initializer is not None:
                biases = model_variable(
                    "biases", shape=[num_outputs], dtype=dtype, initializer=biases_initializer,
                    regularizer=biases_regularizer, trainable=trainable,
                    collections=get_variable_collections(variables_collections, "biases"))
                outputs = tf.nn.bias_add(outputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


separable_conv2d = separable_convolution2d


@add_arg_scope
def softmax(logits, scope=None):
    """Softmax over the last axis of logits of any rank >= 2 (shape kept)."""
    with tf.compat.v1.variable_scope(scope, "softmax", [logits]):
        logits = tf.convert_to_tensor(logits)
        if logits.shape.ndims is None or logits.shape.ndims < 2 or logits.shape[-1] is None:
            raise ValueError(f"softmax needs logits of rank >= 2 with a known last dimension; "
                             f"received shape {logits.shape}")
        flat = tf.reshape(logits, [-1, int(logits.shape[-1])])
        predictions = tf.reshape(tf.nn.softmax(flat), tf.shape(logits))
        predictions.set_shape(logits.shape)
        return predictions
