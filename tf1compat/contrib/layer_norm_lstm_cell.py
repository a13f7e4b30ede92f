"""`tf.contrib.rnn.LayerNormBasicLSTMCell`: TF 1.x's LSTM with layer normalisation and
recurrent dropout, as a `tf.compat.v1` RNNCell with TF 1.x's variables.

Like TF 1.x's cell it is a plain RNNCell (not a layer that builds first): its
variables are made on the first call, under the cell's scope
('layer_norm_basic_lstm_cell' unless given one):

- `kernel` [input_depth + num_units, 4 * num_units] (gates i, j, f, o), and
  `bias` [4 * num_units] only when layer_norm=False;
- with layer_norm, `gamma` (initialised to norm_gain) and `beta` (norm_shift)
  of shape [num_units] under each of the scopes 'input', 'transform',
  'forget', 'output' and 'state', normalised as `tf.contrib.layers.layer_norm`
  does (epsilon 1e-12);
- c' = sigmoid(f + forget_bias) * c + sigmoid(i) * dropout(activation(j)),
  layer-normalised under 'state'; h' = activation(c') * sigmoid(o).
So TF 1.x checkpoints restore by name.
"""

from __future__ import annotations

import functools
import logging

_LOG = logging.getLogger(__name__)


@functools.lru_cache(maxsize=None)
def layer_norm_basic_lstm_cell_class() -> type:
    """Built on first use: its base class comes from tf_keras (tf1compat.rnn_cell)."""
    import tensorflow as tf

    from tf1compat.contrib.layer_norm import layer_norm
    from tf1compat.rnn_cell import legacy_cells

    v1 = tf.compat.v1
    state_tuple = legacy_cells().LSTMStateTuple

    class LayerNormBasicLSTMCell(legacy_cells().RNNCell):
        """contrib's LayerNormBasicLSTMCell (Ba et al., 2016; Semeniuta et al., 2016)."""

        def __init__(self, num_units, forget_bias=1.0, input_size=None, activation=tf.tanh,
                     layer_norm=True, norm_gain=1.0, norm_shift=0.0, dropout_keep_prob=1.0,
                     dropout_prob_seed=None, reuse=None):
            if not isinstance(num_units, int) or isinstance(num_units, bool) or num_units < 1:
                raise ValueError(f"LayerNormBasicLSTMCell: num_units={num_units!r}; accepted: "
                                 "a positive int")
            if isinstance(dropout_keep_prob, (int, float)) and not 0 < dropout_keep_prob <= 1:
                raise ValueError(f"LayerNormBasicLSTMCell: dropout_keep_prob="
                                 f"{dropout_keep_prob!r}; accepted: a value in (0, 1] or a "
                                 "scalar tensor")
            super().__init__(_reuse=reuse)
            if input_size is not None:
                _LOG.warning("%s: the input_size parameter is deprecated and unused.", self)
            self._num_units = num_units
            self._activation = activation
            self._forget_bias = forget_bias
            self._keep_prob = dropout_keep_prob
            self._seed = dropout_prob_seed
            self._layer_norm = layer_norm
            self._norm_gain = norm_gain
            self._norm_shift = norm_shift
            self._reuse = reuse

        @property
        def state_size(self):
            return state_tuple(self._num_units, self._num_units)

        @property
        def output_size(self):
            return self._num_units

        def _norm(self, values, scope, dtype):
            # the variables first, with the cell's initial values; layer_norm then reuses them
            shape = values.shape[-1:]
            with v1.variable_scope(scope):
                v1.get_variable("gamma", shape=shape, dtype=dtype,
                                initializer=v1.constant_initializer(self._norm_gain))
                v1.get_variable("beta", shape=shape, dtype=dtype,
                                initializer=v1.constant_initializer(self._norm_shift))
            return layer_norm(values, reuse=True, scope=scope)

        def _linear(self, args):
            width = 4 * self._num_units
            kernel = v1.get_variable("kernel", [args.shape[-1], width], dtype=args.dtype)
            out = tf.matmul(args, kernel)
            if not self._layer_norm:
                out = tf.nn.bias_add(out, v1.get_variable("bias", [width], dtype=args.dtype))
            return out

        @tf.autograph.experimental.do_not_convert
        def call(self, inputs, state):
            c, h = state
            args = tf.concat([inputs, h], 1)
            dtype = args.dtype
            i, j, f, o = tf.split(self._linear(args), 4, axis=1)
            if self._layer_norm:
                i, j, f, o = (self._norm(gate, scope, dtype) for gate, scope in (
                    (i, "input"), (j, "transform"), (f, "forget"), (o, "output")))
            g = self._activation(j)
            if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
                g = v1.nn.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
            new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
            if self._layer_norm:
                new_c = self._norm(new_c, "state", dtype)
            new_h = self._activation(new_c) * tf.sigmoid(o)
            return new_h, state_tuple(new_c, new_h)

    return LayerNormBasicLSTMCell
