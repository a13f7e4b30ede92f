"""`tf.contrib.seq2seq.BeamSearchDecoder` and `gather_tree`, as TF 1.15 defined them.

The contract (`seq2seq/python/ops/beam_search_decoder.py`), graph mode:

- the initial state and the memory of any attention must be tiled by the
  caller (`tile_batch`); the decoder keeps [batch, beam, ...] tensors and runs
  the cell on [batch * beam, ...];
- each step: log-softmax of the logits (a finished beam may only emit
  `end_token`, at no cost), added to the beam's log-probability; the top
  `beam_width` of (beam, word) per batch entry by score = log-prob / length
  penalty ((5 + length)^w / 6^w, 1 when `length_penalty_weight` is 0); the
  cell state follows its parent beam;
- `finalize` backtracks the parent ids (`gather_tree`: entries past a beam's
  length and after its first `end_token` become `end_token`) and, with
  `reorder_tensor_arrays`, sorts TensorArrays in the cell state (alignment
  history) the same way.
The coverage penalty (`coverage_penalty_weight` != 0) is not served.
"""

from __future__ import annotations

import collections
import warnings

import tensorflow as tf

from tf1compat.contrib.seq2seq_decode import Decoder, _embedding_fn

__all__ = ["BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
           "FinalBeamSearchDecoderOutput", "gather_tree"]

_v1 = tf.compat.v1
nest = tf.nest


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths",
                                   "accumulated_attention_probs"))):
    pass


class BeamSearchDecoderOutput(collections.namedtuple(
        "BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))):
    pass


class FinalBeamSearchDecoderOutput(collections.namedtuple(
        "FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])):
    pass


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """Full beams from per-step ids and parents ([time, batch, beam]), as TF's GatherTree op."""
    with _v1.name_scope(name, "GatherTree", [step_ids, parent_ids, max_sequence_lengths]):
        step_ids = tf.convert_to_tensor(step_ids, name="step_ids")
        parent_ids = tf.convert_to_tensor(parent_ids, name="parent_ids")
        end_token = tf.cast(end_token, step_ids.dtype)
        max_time = tf.shape(step_ids)[0]
        beam_width = tf.shape(step_ids)[2]
        lengths = tf.minimum(tf.cast(max_sequence_lengths, tf.int32), max_time)[:, None]
        own = tf.tile(tf.range(beam_width, dtype=parent_ids.dtype)[None, :],
                      [tf.shape(step_ids)[1], 1])
        next_parents = tf.concat([parent_ids[1:], tf.zeros_like(parent_ids[:1])], 0)

        def back(carry, elems):
            index_above, _ = carry
            t, steps, parents_above = elems
            followed = tf.gather(parents_above, index_above, batch_dims=1)
            index = tf.where(t < lengths - 1, followed, own)
            out = tf.where(t < lengths, tf.gather(steps, index, batch_dims=1), end_token)
            return index, out

        _, beams = tf.scan(back, (tf.range(max_time), step_ids, next_parents),
                           initializer=(own, tf.zeros_like(step_ids[0])), reverse=True)
        ended_before = tf.cumsum(tf.cast(tf.equal(beams, end_token), tf.int32), axis=0,
                                 exclusive=True) > 0
        beams = tf.where(ended_before, tf.fill(tf.shape(beams), end_token), beams)
        beams.set_shape(step_ids.shape)
        return beams


def _check_rank_known(t):
    if t.shape.ndims is None:
        raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")


def _gather_beams(indices, params, batch_size, range_size, gather_shape, name=None):
    """params[b, indices[b, k], ...] through a flat gather, as TF 1.15's gather helper."""
    with _v1.name_scope(name, "tensor_gather_helper"):
        offsets = tf.expand_dims(tf.range(batch_size) * range_size, 1)
        flat_indices = tf.reshape(indices + offsets, [-1])
        output = tf.gather(tf.reshape(params, gather_shape), flat_indices)
        final_shape = tf.shape(params)[:1 + len(gather_shape)]
        static = tf.TensorShape([tf.get_static_value(batch_size)]).concatenate(
            params.shape[1:1 + len(gather_shape)])
        output = tf.reshape(output, final_shape, name="output")
        output.set_shape(static)
        return output


def _length_penalty(lengths, weight):
    weight = tf.convert_to_tensor(weight, name="penalty_factor")
    weight.set_shape(())
    static = tf.get_static_value(weight)
    if static is not None and static == 0:
        return 1.0
    return ((5.0 + tf.cast(lengths, tf.float32)) ** weight) / ((5.0 + 1.0) ** weight)


class BeamSearchDecoder(Decoder):
    """Beam search over a cell whose state (and attention memory) is tiled beam_width times."""

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width,
                 output_layer=None, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
                 reorder_tensor_arrays=True):
        if not callable(cell) or not hasattr(cell, "state_size"):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if output_layer is not None and not callable(output_layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        if tf.get_static_value(tf.convert_to_tensor(coverage_penalty_weight)) != 0:
            raise ValueError("BeamSearchDecoder: coverage_penalty_weight="
                             f"{coverage_penalty_weight!r} is not served by tf1compat; only 0.0 "
                             "(no coverage penalty) is")
        self._cell, self._output_layer = cell, output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32,
                                                  name="start_tokens")
        if self._start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._end_token.shape.ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = tf.size(self._start_tokens)
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._initial_cell_state = nest.map_structure(self._maybe_split_batch_beams,
                                                      initial_state, cell.state_size)
        self._start_tokens = tf.tile(tf.expand_dims(self._start_tokens, 1), [1, beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                                    depth=beam_width, on_value=False, off_value=True,
                                    dtype=tf.bool)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def tracks_own_finished(self):
        return True

    @property
    def output_size(self):
        beams = tf.TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=tf.int32, parent_ids=tf.int32)

    def _split_batch_beams(self, t, s):
        s = tf.TensorShape(tf.get_static_value(s) if isinstance(s, tf.Tensor) else s)
        reshaped = tf.reshape(t, tf.concat([[self._batch_size, self._beam_width],
                                            tf.shape(t)[1:]], 0))
        expected = tf.TensorShape([tf.get_static_value(self._batch_size),
                                   self._beam_width]).concatenate(s)
        if not reshaped.shape.is_compatible_with(expected):
            raise ValueError("Unexpected behavior when reshaping between beam width and batch "
                             f"size. The reshaped tensor has shape: {reshaped.shape}. We "
                             f"expected it to have shape (batch_size, beam_width, depth) == "
                             f"{expected}. Perhaps you forgot to create a zero_state with "
                             "batch_size=encoder_batch_size * beam_width?")
        reshaped.set_shape(expected)
        return reshaped

    def _merge_batch_beams(self, t, s):
        s = tf.TensorShape(tf.get_static_value(s) if isinstance(s, tf.Tensor) else s)
        static = tf.get_static_value(self._batch_size)
        merged = tf.reshape(t, tf.concat([[self._batch_size * self._beam_width],
                                          tf.shape(t)[2:]], 0))
        merged.set_shape(tf.TensorShape([None if static is None else static * self._beam_width])
                         .concatenate(s))
        return merged

    def _maybe_split_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_rank_known(t)
        return self._split_batch_beams(t, s) if t.shape.ndims >= 1 else t

    def _maybe_merge_batch_beams(self, t, s):
        if isinstance(t, tf.TensorArray):
            return t
        _check_rank_known(t)
        return self._merge_batch_beams(t, s) if t.shape.ndims >= 2 else t

    def initialize(self, name=None):
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = tf.one_hot(tf.zeros([self._batch_size], dtype=tf.int32),
                               depth=self._beam_width, on_value=tf.constant(0.0, dtype),
                               off_value=tf.constant(float("-inf"), dtype), dtype=dtype)
        state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
            lengths=tf.zeros([self._batch_size, self._beam_width], dtype=tf.int64),
            accumulated_attention_probs=())
        return self._finished, self._start_inputs, state

    def _sort_tensor_array(self, t, parent_ids, lengths):
        """A TensorArray of the cell state, stacked and put in the order of the final beams."""
        if not isinstance(t, tf.TensorArray):
            return t
        shape = t.element_shape
        dims = [tf.compat.dimension_value(d) for d in shape] if shape.ndims else []
        batch = tf.get_static_value(self._batch_size)
        sortable = shape.ndims is not None and shape.ndims >= 1 and (
            (dims[0] is not None and batch is not None and dims[0] == batch * self._beam_width)
            or (shape.ndims >= 2 and dims[0] == batch and dims[1] == self._beam_width))
        if not sortable:
            warnings.warn(f"The TensorArray {t.handle.name} in the cell state is not amenable "
                          "to sorting based on the beam search result; left unsorted "
                          f"(its element shape: {shape})")
            return t
        stacked = t.stack()
        max_time, width = tf.shape(parent_ids)[0], self._beam_width
        beam_ids = tf.tile(tf.range(width)[None, None, :], [max_time, self._batch_size, 1])
        sorted_ids = gather_tree(beam_ids, parent_ids,
                                 tf.cast(tf.reduce_max(lengths, axis=1), tf.int32), width + 1)
        in_bounds = tf.transpose(tf.sequence_mask(lengths, maxlen=max_time), [2, 0, 1])
        sorted_ids = tf.where(in_bounds, sorted_ids, beam_ids)
        time_ind = tf.tile(tf.reshape(tf.range(max_time), [-1, 1, 1]),
                           [1, self._batch_size, width])
        batch_ind = tf.transpose(tf.tile(tf.reshape(tf.range(self._batch_size), [-1, 1, 1]),
                                         [1, max_time, width]), [1, 0, 2])
        indices = tf.stack([time_ind, batch_ind, sorted_ids], -1)
        grouped = tf.reshape(stacked, [max_time, self._batch_size, width, -1])
        return tf.reshape(tf.gather_nd(grouped, indices), tf.shape(stacked))

    def finalize(self, outputs, final_state, sequence_lengths):
        lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids, lengths,
                                    self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._sort_tensor_array(t, outputs.parent_ids, final_state.lengths),
                final_state.cell_state))
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                            predicted_ids=predicted_ids), final_state

    def step(self, time, inputs, state, name=None):
        with _v1.name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            inputs = nest.map_structure(lambda x: self._merge_batch_beams(x, x.shape[2:]),
                                        inputs)
            cell_state = nest.map_structure(self._maybe_merge_batch_beams, state.cell_state,
                                            self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = nest.map_structure(
                lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = nest.map_structure(self._maybe_split_batch_beams, next_cell_state,
                                                 self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            output, next_state = self._search_step(time, cell_outputs, next_cell_state, state)
            finished = next_state.finished
            next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                                  lambda: self._embedding_fn(output.predicted_ids))
        return output, next_state, next_inputs, finished

    def _search_step(self, time, logits, next_cell_state, beam_state):
        batch, width, end = self._batch_size, self._beam_width, self._end_token
        static_batch = tf.get_static_value(batch)
        finished = beam_state.finished
        step_log_probs = tf.nn.log_softmax(logits)
        vocab = tf.compat.dimension_value(logits.shape[-1])
        vocab = vocab if vocab is not None else tf.shape(logits)[-1]
        # A finished beam may only emit end_token, at no cost.
        only_end = tf.one_hot(end, vocab, dtype=logits.dtype, on_value=0.0,
                              off_value=logits.dtype.min)
        step_log_probs = _v1.where(tf.tile(tf.expand_dims(finished, 2), [1, 1, vocab]),
                                   tf.tile(tf.reshape(only_end, [1, 1, -1]),
                                           tf.concat([tf.shape(finished), [1]], 0)),
                                   step_log_probs)
        total = tf.expand_dims(beam_state.log_probs, 2) + step_log_probs
        grow = tf.one_hot(tf.fill([batch, width], end), depth=vocab,
                          on_value=tf.constant(0, tf.int64), off_value=tf.constant(1, tf.int64),
                          dtype=tf.int64)
        grow *= tf.expand_dims(tf.cast(tf.logical_not(finished), tf.int64), 2)
        new_lengths = grow + tf.expand_dims(beam_state.lengths, 2)
        penalty = tf.cast(_length_penalty(new_lengths, self._length_penalty_weight), total.dtype)
        scores = tf.reshape(total / penalty, [batch, -1])
        top_scores, word_indices = tf.nn.top_k(scores, k=width)
        top_scores.set_shape([static_batch, width])
        word_indices.set_shape([static_batch, width])
        top_log_probs = _gather_beams(word_indices, total, batch, width * vocab, [-1],
                                      name="next_beam_probs")
        word_ids = tf.cast(word_indices % vocab, tf.int32, name="next_beam_word_ids")
        parent_ids = tf.cast(word_indices // vocab, tf.int32, name="next_beam_parent_ids")
        parent_finished = _gather_beams(parent_ids, finished, batch, width, [-1])
        next_finished = tf.logical_or(parent_finished, tf.equal(word_ids, end),
                                      name="next_beam_finished")
        lengths = _gather_beams(parent_ids, beam_state.lengths, batch, width, [-1])
        lengths += tf.cast(tf.logical_not(parent_finished), tf.int64)

        def follow(t):
            if isinstance(t, tf.TensorArray):
                return t
            _check_rank_known(t)
            if t.shape.ndims >= 2:
                return _gather_beams(parent_ids, t, batch, width, [batch * width, -1])
            return t

        next_state = BeamSearchDecoderState(
            cell_state=nest.map_structure(follow, next_cell_state), log_probs=top_log_probs,
            lengths=lengths, finished=next_finished, accumulated_attention_probs=())
        return BeamSearchDecoderOutput(top_scores, word_ids, parent_ids), next_state
