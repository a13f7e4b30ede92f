"""`tf.contrib.seq2seq` attention: Bahdanau and Luong mechanisms and `AttentionWrapper`.

The contract is TF 1.15's (`seq2seq/python/ops/attention_wrapper.py`), graph mode:

- a mechanism projects the memory once, at construction, with a bias-free
  Dense named 'memory_layer' (the keys; the values are the memory, zeroed past
  `memory_sequence_length`), and scores a query against the keys:
  Luong: query . key (times a scalar 'attention_g' when `scale`); Bahdanau:
  sum(v * tanh(keys + query_layer(query))) ('attention_v'; with `normalize`,
  v = g * v / |v| and a bias 'attention_b'). Scores past the memory's length
  become `score_mask_value` (-inf) before `probability_fn` (softmax).
- `AttentionWrapper` is an RNN cell (its scope 'attention_wrapper'): it feeds
  concat(inputs, previous attention) to the wrapped cell, attends with the
  cell's output, and emits the attention: the context (alignment-weighted
  values), or a bias-free Dense 'attention_layer' of concat(cell output,
  context) when `attention_layer_size` is given. Its state is
  `AttentionWrapperState`.
"""

from __future__ import annotations

import collections

import numpy as np
import tensorflow as tf

import tf1compat.layers
import tf1compat.rnn_cell

__all__ = ["AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
           "AttentionWrapperState"]

_v1 = tf.compat.v1
nest = tf.nest


def _dim(tensor, axis):
    static = tf.compat.dimension_value(tensor.shape[axis])
    return static if static is not None else tf.shape(tensor)[axis]


def _mask_memory(memory, memory_sequence_length):
    if memory_sequence_length is None:
        return memory
    mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(memory)[1], dtype=memory.dtype)
    extra = tf.ones([memory.shape.ndims - 2], dtype=tf.int32)
    return memory * tf.reshape(mask, tf.concat([tf.shape(mask), extra], 0))


def _mask_score(score, memory_sequence_length, score_mask_value):
    if memory_sequence_length is None:
        return score
    mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(score)[1])
    return _v1.where(mask, score, score_mask_value * tf.ones_like(score))


class AttentionMechanism:
    """The base of the attention mechanisms (what AttentionWrapper accepts)."""


class _BaseAttentionMechanism(AttentionMechanism):
    def __init__(self, query_layer, memory, probability_fn, memory_sequence_length, memory_layer,
                 score_mask_value, name, custom_key_value_fn=None):
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype
        if not callable(probability_fn):
            raise TypeError(f"probability_fn must be callable, saw type: {type(probability_fn)}")
        with _v1.name_scope(name, "BaseAttentionMechanismInit", nest.flatten(memory)):
            memory = tf.convert_to_tensor(memory, name="memory")
            if score_mask_value is None:
                score_mask_value = memory.dtype.as_numpy_dtype(-np.inf)
            self._probability_fn = lambda score, state: probability_fn(
                _mask_score(score, memory_sequence_length, score_mask_value), state)
            if memory_sequence_length is not None:
                memory_sequence_length = tf.convert_to_tensor(memory_sequence_length,
                                                              name="memory_sequence_length")
            self._values = _mask_memory(memory, memory_sequence_length)
            self._keys = self._memory_layer(self._values) if self._memory_layer else self._values
            if custom_key_value_fn is not None:  # the keys and values, as the caller makes them
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = _dim(self._keys, 0)
            self._alignments_size = _dim(self._keys, 1)

    @property
    def memory_layer(self):
        return self._memory_layer

    @property
    def query_layer(self):
        return self._query_layer

    @property
    def values(self):
        return self._values

    @property
    def keys(self):
        return self._keys

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def alignments_size(self):
        return self._alignments_size

    @property
    def state_size(self):
        return self._alignments_size

    def initial_alignments(self, batch_size, dtype):
        return tf.zeros(tf.stack([batch_size, self._alignments_size]), dtype=dtype)

    def initial_state(self, batch_size, dtype):
        return self.initial_alignments(batch_size, dtype)


def _dense(units, name, dtype):
    return tf1compat.layers.Dense(units, name=name, use_bias=False, dtype=dtype)


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention (Luong et al., 2015), optionally scaled by a learned scalar."""

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="LuongAttention"):
        probability_fn = probability_fn or tf.nn.softmax
        super().__init__(None, memory, lambda score, _: probability_fn(score),
                         memory_sequence_length, _dense(num_units, "memory_layer", dtype),
                         score_mask_value, name, custom_key_value_fn)
        self._num_units, self._scale, self._name = num_units, scale, name

    def __call__(self, query, state):
        with _v1.variable_scope(None, "luong_attention", [query]):
            depth, key_depth = (tf.compat.dimension_value(query.shape[-1]),
                                tf.compat.dimension_value(self._keys.shape[-1]))
            if depth != key_depth:
                raise ValueError("Incompatible or unknown inner dimensions between query and "
                                 f"keys. Query (depth {depth}) has units: {depth}. Keys have "
                                 f"units: {key_depth}. Perhaps you need to set num_units to the "
                                 "keys' dimension?")
            score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), self._keys, transpose_b=True),
                               [1])
            if self._scale:
                g = _v1.get_variable("attention_g", dtype=query.dtype, shape=(),
                                     initializer=_v1.ones_initializer())
                score = g * score
            alignments = self._probability_fn(score, state)
        return alignments, alignments


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention (Bahdanau et al., 2015), optionally weight-normalized."""

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="BahdanauAttention"):
        probability_fn = probability_fn or tf.nn.softmax
        super().__init__(_dense(num_units, "query_layer", dtype), memory,
                         lambda score, _: probability_fn(score), memory_sequence_length,
                         _dense(num_units, "memory_layer", dtype), score_mask_value, name,
                         custom_key_value_fn)
        self._num_units, self._normalize, self._name = num_units, normalize, name

    def __call__(self, query, state):
        with _v1.variable_scope(None, "bahdanau_attention", [query]):
            query = tf.expand_dims(self._query_layer(query), 1)
            keys, dtype = self._keys, self._keys.dtype
            units = _dim(keys, 2)
            v = _v1.get_variable("attention_v", [units], dtype=dtype)
            if self._normalize:
                g = _v1.get_variable("attention_g", dtype=dtype, shape=(),
                                     initializer=_v1.constant_initializer(np.sqrt(1.0 / units)))
                b = _v1.get_variable("attention_b", [units], dtype=dtype,
                                     initializer=_v1.zeros_initializer())
                v = g * v * tf.math.rsqrt(tf.reduce_sum(tf.square(v)))
                score = tf.reduce_sum(v * tf.tanh(keys + query + b), [2])
            else:
                score = tf.reduce_sum(v * tf.tanh(keys + query), [2])
            alignments = self._probability_fn(score, state)
        return alignments, alignments


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState", ("cell_state", "attention", "time", "alignments",
                                  "alignment_history", "attention_state"))):
    """The state of an AttentionWrapper; `clone` replaces fields and keeps static shapes."""

    def clone(self, **kwargs):
        def same_shape(old, new):
            if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor):
                new.set_shape(old.shape)
            return new
        return nest.map_structure(same_shape, self, self._replace(**kwargs))


def _item_or_tuple(seq):
    seq = tuple(seq)
    return seq[0] if len(seq) == 1 else seq


def _compute_attention(mechanism, cell_output, attention_state, attention_layer):
    alignments, next_state = mechanism(cell_output, state=attention_state)
    context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), mechanism.values), [1])
    attention = context if attention_layer is None else attention_layer(
        tf.concat([cell_output, context], 1))
    return attention, alignments, next_state


class AttentionWrapper(tf1compat.rnn_cell.RNNCell):
    """Wraps an RNN cell with one attention mechanism (or a list of them)."""

    def __init__(self, cell, attention_mechanism, attention_layer_size=None,
                 alignment_history=False, cell_input_fn=None, output_attention=True,
                 initial_cell_state=None, name=None, attention_layer=None, attention_fn=None):
        super().__init__(name=name)
        self._is_multi = isinstance(attention_mechanism, (list, tuple))
        mechanisms = tuple(attention_mechanism) if self._is_multi else (attention_mechanism,)
        for mechanism in mechanisms:
            if not isinstance(mechanism, AttentionMechanism):
                raise TypeError("attention_mechanism must be an AttentionMechanism or a list "
                                f"of them, saw type: {type(mechanism).__name__}")
        self._cell_input_fn = cell_input_fn or (lambda inputs, attention:
                                                tf.concat([inputs, attention], -1))
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer_size must contain exactly one "
                                 f"integer per attention_mechanism, saw: {len(sizes)} vs "
                                 f"{len(mechanisms)}")
            self._attention_layers = tuple(_dense(size, "attention_layer", m.dtype)
                                           for size, m in zip(sizes, mechanisms))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:  # the caller's layers, sized by their output
            self._attention_layers = tuple(attention_layer if isinstance(
                attention_layer, (list, tuple)) else (attention_layer,))
            if len(self._attention_layers) != len(mechanisms):
                raise ValueError("If provided, attention_layer must contain exactly one layer "
                                 f"per attention_mechanism, saw: {len(self._attention_layers)} "
                                 f"vs {len(mechanisms)}")
            self._attention_layer_size = sum(
                tf.compat.dimension_value(layer.compute_output_shape(
                    [None, cell.output_size + _dim(m.values, 2)])[-1])
                for layer, m in zip(self._attention_layers, mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(int(m.values.shape[-1]) for m in mechanisms)
        self._attention_fn = attention_fn or _compute_attention
        self._cell, self._mechanisms = cell, mechanisms
        self._output_attention, self._alignment_history = output_attention, alignment_history
        with _v1.name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                last = nest.flatten(initial_cell_state)[-1]
                with tf.control_dependencies(self._batch_size_checks(
                        _dim(last, 0), "initial_cell_state")):
                    self._initial_cell_state = nest.map_structure(
                        lambda s: tf.identity(s, name="check_initial_cell_state"),
                        initial_cell_state)

    def _batch_size_checks(self, batch_size, what):
        message = (f"When using AttentionWrapper, the batch size of {what} must match the "
                   "attention mechanism's memory batch size (use tile_batch on the memory "
                   "for beam search)")
        return [_v1.assert_equal(batch_size, m.batch_size, message=message)
                for m in self._mechanisms]

    @property
    def output_size(self):
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self):
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=tf.TensorShape([]),
            attention=self._attention_layer_size,
            alignments=_item_or_tuple(m.alignments_size for m in self._mechanisms),
            attention_state=_item_or_tuple(m.state_size for m in self._mechanisms),
            alignment_history=_item_or_tuple(m.alignments_size if self._alignment_history
                                             else () for m in self._mechanisms))

    def zero_state(self, batch_size, dtype):
        with _v1.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            cell_state = (self._initial_cell_state if self._initial_cell_state is not None
                          else self._cell.zero_state(batch_size, dtype))
            with tf.control_dependencies(self._batch_size_checks(batch_size, "zero_state")):
                cell_state = nest.map_structure(
                    lambda s: tf.identity(s, name="checked_cell_state"), cell_state)
            alignments = [m.initial_alignments(batch_size, dtype) for m in self._mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state, time=tf.zeros([], dtype=tf.int32),
                attention=tf.zeros(tf.stack([batch_size, self._attention_layer_size]), dtype),
                alignments=_item_or_tuple(alignments),
                attention_state=_item_or_tuple(m.initial_state(batch_size, dtype)
                                               for m in self._mechanisms),
                alignment_history=_item_or_tuple(
                    tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                    if self._alignment_history else () for a in alignments))

    def call(self, inputs, state):
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be instance of AttentionWrapperState. Received "
                            f"type {type(state)} instead.")
        cell_output, next_cell_state = self._cell(self._cell_input_fn(inputs, state.attention),
                                                  state.cell_state)
        with tf.control_dependencies(self._batch_size_checks(_dim(cell_output, 0),
                                                             "the cell output")):
            cell_output = tf.identity(cell_output, name="checked_cell_output")
        states = state.attention_state if self._is_multi else [state.attention_state]
        histories = state.alignment_history if self._is_multi else [state.alignment_history]
        attentions, all_alignments, next_states, next_histories = [], [], [], []
        for i, mechanism in enumerate(self._mechanisms):
            layer = self._attention_layers[i] if self._attention_layers else None
            attention, alignments, next_state = self._attention_fn(mechanism, cell_output,
                                                                   states[i], layer)
            attentions.append(attention)
            all_alignments.append(alignments)
            next_states.append(next_state)
            next_histories.append(histories[i].write(state.time, alignments)
                                  if self._alignment_history else ())
        attention = tf.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=_item_or_tuple(next_states),
            alignments=_item_or_tuple(all_alignments),
            alignment_history=_item_or_tuple(next_histories))
        return (attention if self._output_attention else cell_output), next_state
