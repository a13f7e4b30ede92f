"""`tf.contrib.rnn`: the TF1 cells (legacy Keras, see tf1compat.rnn_cell) and `LSTMBlockCell`.

The cells, wrappers and `static_rnn` family are mapped (TensorFlow's upgrade
table: `tf.contrib.rnn.X` -> `tf.compat.v1.nn.rnn_cell.X`); they resolve
through this module's `__getattr__`. `LSTMBlockCell`, contrib's fused LSTM,
is replaced by a cell with the same contract (TF 1.x `lstm_ops.py`):

- variables `kernel` [input_depth + num_units, 4 * num_units] and `bias`
  [4 * num_units] under the scope 'lstm_cell'; gates in the order i, j, f, o;
- c' = sigmoid(f + forget_bias) * c + sigmoid(i) * tanh(j), clipped to
  [-cell_clip, cell_clip] when cell_clip > 0; h' = tanh(c') * sigmoid(o);
- state `LSTMStateTuple(c, h)`, output h.
Peepholes (use_peephole=True) are not served. `LayerNormBasicLSTMCell` is
replaced too (tf1compat.contrib.layer_norm_lstm_cell).
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

from tf1compat.contrib import registry

__all__ = ["LSTMBlockCell", "LayerNormBasicLSTMCell"]


@functools.lru_cache(maxsize=None)
def lstm_block_cell_class() -> type:
    """Built on first use: its base class comes from tf_keras."""
    import tensorflow as tf

    from tf1compat.rnn_cell import legacy_cells

    base = legacy_cells().BasicLSTMCell
    state_tuple = legacy_cells().LSTMStateTuple

    class LSTMBlockCell(base):
        """contrib's LSTMBlockCell: BasicLSTMCell's weights and gates, optional cell clipping."""

        def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                     dtype=None, reuse=None, name="lstm_cell", **kwargs):
            if use_peephole:
                raise ValueError("LSTMBlockCell(use_peephole=True) is not served by tf1compat; "
                                 "use tf.compat.v1.nn.rnn_cell.LSTMCell(use_peepholes=True) "
                                 "(its variables are named differently)")
            with warnings.catch_warnings():  # BasicLSTMCell's/GRUCell's notice is not about us
                warnings.simplefilter("ignore", UserWarning)
                super().__init__(num_units, forget_bias=forget_bias, state_is_tuple=True,
                                 reuse=reuse, name=name, dtype=dtype, **kwargs)
            self._cell_clip = cell_clip if cell_clip is not None and cell_clip > 0 else None

        @tf.autograph.experimental.do_not_convert
        def call(self, inputs, state):
            c, h = state
            gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h], 1), self._kernel),
                                   self._bias)
            i, j, f, o = tf.split(gates, 4, axis=1)
            new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * tf.tanh(j)
            if self._cell_clip is not None:
                new_c = tf.clip_by_value(new_c, -self._cell_clip, self._cell_clip)
            new_h = tf.tanh(new_c) * tf.sigmoid(o)
            return new_h, state_tuple(new_c, new_h)

    return LSTMBlockCell


def __getattr__(name: str) -> Any:
    if name == "LSTMBlockCell":
        return lstm_block_cell_class()
    if name == "LayerNormBasicLSTMCell":
        from tf1compat.contrib.layer_norm_lstm_cell import layer_norm_basic_lstm_cell_class

        return layer_norm_basic_lstm_cell_class()
    return registry.attribute("rnn", name)
