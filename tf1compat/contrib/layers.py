"""`tf.contrib.layers` (and slim's layers) on `tf.compat.v1`, in graph mode, without Keras.

Contracts of TF 1.x that scripts and checkpoints depend on:

- `fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, ...)`: variables
  `<scope>/weights` [in, num_outputs] (Xavier uniform) and `<scope>/biases`
  (zeros; none when a `normalizer_fn` is given), default scope
  'fully_connected', in GLOBAL_VARIABLES and MODEL_VARIABLES (and
  TRAINABLE_VARIABLES when trainable); inputs of rank > 2 are multiplied on
  their last axis. Then `normalizer_fn`, then `activation_fn`.
- `conv2d(inputs, num_outputs, kernel_size, stride=1, padding='SAME', ...)`: the
  same, default scope 'Conv', weights [kh, kw, in, out]; `rate` dilates.
- `max_pool2d` / `avg_pool2d(inputs, kernel_size, stride=2, padding='VALID')`.
- `flatten(inputs)`: [batch, ...] -> [batch, k]; rank unknown or < 2 raises ValueError.
- `dropout(inputs, keep_prob=0.5, is_training=True)`: identity when not training.
- Every layer honours `arg_scope`, and `outputs_collections` adds the output
  (its `aliases` list gets the scope's name,
  see `tf1compat.contrib.layer_utils`) to those collections.
"""

from __future__ import annotations

import functools
from typing import Any, Optional

import tensorflow as tf

from tf1compat.contrib import registry
from tf1compat.contrib.arg_scope import add_arg_scope
from tf1compat.contrib.batch_norm import batch_norm
from tf1compat.contrib.framework import model_variable
from tf1compat.contrib.layer_norm import layer_norm
from tf1compat.contrib.layer_utils import collect_named_outputs
from tf1compat.contrib.separable_conv import (separable_conv2d, separable_convolution2d,
                                              softmax)
from tf1compat.contrib.layer_utils import get_variable_collections as _variable_collections
from tf1compat.contrib.initializers import (variance_scaling_initializer, xavier_initializer,
                                            xavier_initializer_conv2d)
from tf1compat.contrib.regularizers import (apply_regularization, l1_l2_regularizer,
                                            l1_regularizer, l2_regularizer, sum_regularizer)

__all__ = ["flatten", "fully_connected", "linear", "relu", "conv2d", "convolution2d",
           "max_pool2d", "avg_pool2d", "batch_norm", "dropout", "one_hot_encoding",
           "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization", "xavier_initializer", "xavier_initializer_conv2d",
           "variance_scaling_initializer", "repeat", "layer_norm",
           "separable_conv2d", "separable_convolution2d", "softmax"]

# TF 1.x's defaults, the same objects its signatures show (a stateless initializer is shared
# by every call, as TF 1.x shared it).
_RELU = tf.nn.relu
_XAVIER = xavier_initializer()
_ZEROS = tf.compat.v1.zeros_initializer()


def _weights_and_biases(shape: list, num_outputs: int, dtype, *, weights_initializer,
                        weights_regularizer, biases_initializer, biases_regularizer,
                        with_biases: bool, variables_collections, trainable: bool):
    weights = model_variable("weights", shape=shape, dtype=dtype,
                             initializer=weights_initializer, regularizer=weights_regularizer,
                             collections=_variable_collections(variables_collections, "weights"),
                             trainable=trainable)
    biases = None
    if with_biases and biases_initializer is not None:
        biases = model_variable("biases", shape=[num_outputs], dtype=dtype,
                                initializer=biases_initializer, regularizer=biases_regularizer,
                                collections=_variable_collections(variables_collections,
                                                                  "biases"),
                                trainable=trainable)
    return weights, biases


def _finish(outputs, biases, normalizer_fn, normalizer_params, activation_fn, data_format=None):
    if biases is not None:
        outputs = tf.nn.bias_add(outputs, biases, data_format=data_format)
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return outputs


@add_arg_scope
def fully_connected(inputs, num_outputs, activation_fn=_RELU, normalizer_fn=None,
                    normalizer_params=None, weights_initializer=_XAVIER,
                    weights_regularizer=None, biases_initializer=_ZEROS,
                    biases_regularizer=None, reuse=None, variables_collections=None,
                    outputs_collections=None, trainable=True, scope=None):
    """A dense layer: activation_fn(normalizer_fn(inputs @ weights + biases))."""
    if isinstance(num_outputs, bool) or not isinstance(num_outputs, int):
        raise ValueError(f"num_outputs should be an int, got {type(num_outputs).__name__}: "
                         f"num_outputs={num_outputs!r}")
    with tf.compat.v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        depth = inputs.shape[-1] if inputs.shape.ndims else None
        if depth is None:
            raise ValueError(f"the last dimension of the inputs to fully_connected must be "
                             f"known; received shape {inputs.shape}")
        weights, biases = _weights_and_biases(
            [int(depth), num_outputs], num_outputs, inputs.dtype.base_dtype,
            weights_initializer=weights_initializer, weights_regularizer=weights_regularizer,
            biases_initializer=biases_initializer, biases_regularizer=biases_regularizer,
            with_biases=normalizer_fn is None, variables_collections=variables_collections,
            trainable=trainable)
        rank = inputs.shape.ndims
        if rank > 2:
            outputs = tf.tensordot(inputs, weights, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape[:-1].concatenate([num_outputs]))
        else:
            outputs = tf.matmul(inputs, weights)
        outputs = _finish(outputs, biases, normalizer_fn, normalizer_params, activation_fn)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


# As TF 1.15 defines them: partials, so their parameters are fully_connected's, the ones after
# activation_fn keyword-only, and a script may still pass its own activation_fn.
linear = functools.partial(fully_connected, activation_fn=None)
relu = functools.partial(fully_connected, activation_fn=tf.nn.relu)


def _pair(value, what: str) -> list[int]:
    if isinstance(value, int):
        return [value, value]
    value = list(value)
    if len(value) != 2:
        raise ValueError(f"{what} must be an int or a pair of ints; received {what}={value!r}")
    return [int(v) for v in value]


@add_arg_scope
def conv2d(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
           activation_fn=_RELU, normalizer_fn=None, normalizer_params=None,
           weights_initializer=_XAVIER, weights_regularizer=None, biases_initializer=_ZEROS,
           biases_regularizer=None, reuse=None, variables_collections=None,
           outputs_collections=None, trainable=True, scope=None):
    """A 2-D convolution layer (NHWC, or NCHW with data_format='NCHW')."""
    if data_format not in (None, "NHWC", "NCHW"):
        raise ValueError(f"Invalid data_format: {data_format!r}; accepted: NHWC, NCHW")
    with tf.compat.v1.variable_scope(scope, "Conv", [inputs], reuse=reuse) as sc:
        inputs = tf.convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError(f"conv2d needs inputs of rank 4; received shape {inputs.shape}")
        channel_axis = 1 if data_format == "NCHW" else -1
        channels = inputs.shape[channel_axis]
        if channels is None:
            raise ValueError(f"the channel dimension of the inputs must be known; received "
                             f"shape {inputs.shape}")
        weights, biases = _weights_and_biases(
            _pair(kernel_size, "kernel_size") + [int(channels), num_outputs], num_outputs,
            inputs.dtype.base_dtype, weights_initializer=weights_initializer,
            weights_regularizer=weights_regularizer, biases_initializer=biases_initializer,
            biases_regularizer=biases_regularizer, with_biases=normalizer_fn is None,
            variables_collections=variables_collections, trainable=trainable)
        outputs = tf.compat.v1.nn.convolution(
            inputs, weights, padding=padding.upper(), strides=_pair(stride, "stride"),
            dilation_rate=_pair(rate, "rate"), data_format=data_format or "NHWC")
        outputs = _finish(outputs, biases, normalizer_fn, normalizer_params, activation_fn,
                          data_format=data_format or "NHWC")
        return collect_named_outputs(outputs_collections, sc.name, outputs)


convolution2d = conv2d


def _pool(pool, default_name, inputs, kernel_size, stride, padding, data_format,
          outputs_collections, scope):
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format has to be either NCHW or NHWC; received {data_format!r}")
    with tf.compat.v1.name_scope(scope, default_name, [inputs]) as sc:
        kernel, strides = _pair(kernel_size, "kernel_size"), _pair(stride, "stride")
        if data_format == "NHWC":
            ksize, step = [1, *kernel, 1], [1, *strides, 1]
        else:
            ksize, step = [1, 1, *kernel], [1, 1, *strides]
        outputs = pool(inputs, ksize=ksize, strides=step, padding=padding.upper(),
                       data_format=data_format)
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def max_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
    return _pool(tf.compat.v1.nn.max_pool, "MaxPool2D", inputs, kernel_size, stride,
                 padding, data_format, outputs_collections, scope)


@add_arg_scope
def avg_pool2d(inputs, kernel_size, stride=2, padding="VALID", data_format="NHWC",
               outputs_collections=None, scope=None):
    return _pool(tf.compat.v1.nn.avg_pool, "AvgPool2D", inputs, kernel_size, stride,
                 padding, data_format, outputs_collections, scope)


@add_arg_scope
def flatten(inputs, outputs_collections=None, scope=None):
    """[batch, d1, ..., dn] -> [batch, d1 * ... * dn].

    Raises:
      ValueError: the rank of `inputs` is unknown or less than 2.
    """
    with tf.compat.v1.name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = tf.convert_to_tensor(inputs)
        rank = inputs.shape.ndims
        if rank is None or rank < 2:
            raise ValueError(f"Inputs must have a least 2 dimensions; received shape "
                             f"{inputs.shape}")
        inner = inputs.shape[1:].num_elements()
        outputs = tf.reshape(inputs, [tf.shape(inputs)[0], -1 if inner is None else inner])
        outputs.set_shape([inputs.shape[0], inner])
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None,
            scope=None, seed=None):
    """Keeps each element with probability keep_prob (scaled by 1/keep_prob) when training."""
    with tf.compat.v1.name_scope(scope, "Dropout", [inputs]) as sc:
        inputs = tf.convert_to_tensor(inputs)

        def dropped():
            return tf.nn.dropout(inputs, rate=1 - keep_prob, noise_shape=noise_shape, seed=seed)

        if isinstance(is_training, bool):
            outputs = dropped() if is_training else tf.identity(inputs)
        else:
            outputs = tf.cond(tf.cast(is_training, tf.bool), dropped, lambda: tf.identity(inputs))
        return collect_named_outputs(outputs_collections, sc, outputs)


@add_arg_scope
def one_hot_encoding(labels, num_classes, on_value=1.0, off_value=0.0, outputs_collections=None,
                     scope=None):
    with tf.compat.v1.name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = tf.convert_to_tensor(labels)
        if labels.dtype == tf.int32:
            labels = tf.cast(labels, tf.int64)
        outputs = tf.one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return collect_named_outputs(outputs_collections, sc, outputs)


def repeat(inputs, repetitions: int, layer, *args, scope: Optional[str] = None, **kwargs):
    """Applies `layer` `repetitions` times, in scopes '<scope>/<scope>_1', '<scope>/<scope>_2'...

    As `slim.repeat(net, 2, slim.conv2d, 64, [3, 3], scope='conv1')` names its
    variables 'conv1/conv1_1/weights', 'conv1/conv1_2/weights'.
    """
    name = scope or getattr(layer, "__name__", None) or \
        getattr(getattr(layer, "func", None), "__name__", "repeat")  # a functools.partial
    with tf.compat.v1.variable_scope(scope, "Repeat", [inputs]):
        outputs = inputs
        for index in range(repetitions):
            kwargs["scope"] = f"{name}_{index + 1}"
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def __getattr__(name: str) -> Any:
    return registry.attribute("layers", name)
