"""`tf.contrib.cudnn_rnn`: the cuDNN-compatible cells, which run on CPU.

`CudnnLSTM` / `CudnnGRU` need a GPU with cuDNN and are not served (the error
names these cells). The cells follow TF 1.x `cudnn_rnn_ops.py`:

- `CudnnCompatibleLSTMCell(num_units, reuse=None)`: an LSTMBlockCell with
  forget_bias 0 and no clipping, scope 'cudnn_compatible_lstm_cell'.
- `CudnnCompatibleGRUCell(num_units, reuse=None, kernel_initializer=None)`,
  scope 'cudnn_compatible_gru_cell', cuDNN's GRU:
  r, u = sigmoid([x, h] @ gates/kernel + gates/bias);
  h~ = tanh(x @ candidate/input_projection/kernel + candidate/input_projection/bias
            + r * (h @ candidate/hidden_projection/kernel + candidate/hidden_projection/bias));
  h' = u * h + (1 - u) * h~. gates/bias starts at 1, the projection biases at 0.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

from tf1compat.contrib import registry

__all__ = ["CudnnCompatibleLSTMCell", "CudnnCompatibleGRUCell"]


@functools.lru_cache(maxsize=None)
def _lstm_class() -> type:
    from tf1compat.contrib.rnn import lstm_block_cell_class

    class CudnnCompatibleLSTMCell(lstm_block_cell_class()):
        """LSTMBlockCell(forget_bias=0): the weights of a cuDNN LSTM, in canonical form."""

        def __init__(self, num_units, reuse=None, name="cudnn_compatible_lstm_cell", **kwargs):
            super().__init__(num_units, forget_bias=0.0, cell_clip=None, use_peephole=False,
                             reuse=reuse, name=name, **kwargs)

    return CudnnCompatibleLSTMCell


@functools.lru_cache(maxsize=None)
def _gru_class() -> type:
    import tensorflow as tf

    from tf1compat.rnn_cell import legacy_cells

    class CudnnCompatibleGRUCell(legacy_cells().GRUCell):
        """A GRU with cuDNN's formula (the reset gate applied after the hidden projection)."""

        def __init__(self, num_units, reuse=None, kernel_initializer=None,
                     name="cudnn_compatible_gru_cell", **kwargs):
            with warnings.catch_warnings():  # BasicLSTMCell's/GRUCell's notice is not about us
                warnings.simplefilter("ignore", UserWarning)
                super().__init__(num_units, activation=None, reuse=reuse,
                                 kernel_initializer=kernel_initializer, name=name, **kwargs)

        def build(self, input_shape):
            input_shape = tf.TensorShape(input_shape)
            depth = input_shape[-1]
            if depth is None:
                raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: "
                                 f"{input_shape}")
            units = self._num_units
            zeros = tf.compat.v1.zeros_initializer(dtype=self.dtype)
            self._gate_kernel = self.add_weight("gates/kernel", shape=[depth + units, 2 * units],
                                                initializer=self._kernel_initializer)
            self._gate_bias = self.add_weight(
                "gates/bias", shape=[2 * units],
                initializer=tf.compat.v1.constant_initializer(1.0, dtype=self.dtype))
            self._input_kernel = self.add_weight("candidate/input_projection/kernel",
                                                 shape=[depth, units],
                                                 initializer=self._kernel_initializer)
            self._hidden_kernel = self.add_weight("candidate/hidden_projection/kernel",
                                                  shape=[units, units],
                                                  initializer=self._kernel_initializer)
            self._input_bias = self.add_weight("candidate/input_projection/bias",
                                               shape=[units], initializer=zeros)
            self._hidden_bias = self.add_weight("candidate/hidden_projection/bias",
                                                shape=[units], initializer=zeros)
            self.built = True

        @tf.autograph.experimental.do_not_convert
        def call(self, inputs, state):
            gates = tf.sigmoid(tf.nn.bias_add(
                tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel), self._gate_bias))
            r, u = tf.split(gates, 2, axis=1)
            candidate = tf.tanh(
                tf.nn.bias_add(tf.matmul(inputs, self._input_kernel), self._input_bias)
                + r * tf.nn.bias_add(tf.matmul(state, self._hidden_kernel), self._hidden_bias))
            new_h = u * state + (1 - u) * candidate
            return new_h, new_h

    return CudnnCompatibleGRUCell


def __getattr__(name: str) -> Any:
    if name == "CudnnCompatibleLSTMCell":
        return _lstm_class()
    if name == "CudnnCompatibleGRUCell":
        return _gru_class()
    return registry.attribute("cudnn_rnn", name)
