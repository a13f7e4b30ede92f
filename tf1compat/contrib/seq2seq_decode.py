"""`tf.contrib.seq2seq` decoding: helpers, `BasicDecoder`, `dynamic_decode`, `tile_batch`.

The contract is TF 1.15's (`seq2seq/python/ops/{helper,basic_decoder,decoder}.py`),
written for graph mode on `tf.compat.v1` ops:

- `dynamic_decode` opens the variable scope 'decoder' (or `scope`), so a cell called in its
  loop creates `decoder/<cell name>/kernel` as TF 1.15 did and checkpoints line up; it runs a
  `tf.compat.v1.while_loop` until every sequence is finished or `maximum_iterations` steps,
  and returns (outputs, final state, lengths), outputs batch-major unless `output_time_major`. A sequence's length is the step at which it finished
  (a finished sequence still emits unless `impute_finished`, which emits zeros
  and keeps its state); a sequence cut by `maximum_iterations` has that length.
- `TrainingHelper` reads the given inputs step by step (all finished at their
  `sequence_length`); `GreedyEmbeddingHelper` feeds back the embedding of the
  argmax, finished at `end_token`.
- `tile_batch(t, m)` repeats each batch entry m times in place:
  [b, ...] -> [b * m, ...] (entry i becomes rows i*m .. i*m+m-1).
"""

from __future__ import annotations

import abc
import collections

import tensorflow as tf

__all__ = ["Helper", "TrainingHelper", "GreedyEmbeddingHelper", "Decoder", "BasicDecoder",
           "BasicDecoderOutput", "dynamic_decode", "tile_batch"]

_v1 = tf.compat.v1
nest = tf.nest


def _tile_one(t, multiplier):
    t = tf.convert_to_tensor(t, name="t")
    if t.shape.ndims is None:
        raise ValueError(f"tile_batch: t must have a statically known rank; received {t}")
    if t.shape.ndims == 0:
        raise ValueError(f"tile_batch: t must have a batch dimension (rank >= 1); received "
                         f"the scalar {t}")
    shape = tf.shape(t)
    multiples = [1] * (t.shape.ndims + 1)
    multiples[1] = multiplier
    tiled = tf.tile(tf.expand_dims(t, 1), multiples)
    tiled = tf.reshape(tiled, tf.concat([[shape[0] * multiplier], shape[1:]], 0))
    static_batch = tf.compat.dimension_value(t.shape[0])
    tiled.set_shape(tf.TensorShape([None if static_batch is None else static_batch * multiplier])
                    .concatenate(t.shape[1:]))
    return tiled


def tile_batch(t, multiplier, name=None):
    """Each batch entry of every tensor in the structure `t`, repeated `multiplier` times."""
    flat = nest.flatten(t)
    with _v1.name_scope(name, "tile_batch", flat + [multiplier]):
        return nest.map_structure(lambda x: _tile_one(x, multiplier), t)


def _transpose_batch_time(x):
    """[a, b, ...] -> [b, a, ...]; tensors of rank < 2 pass through (as TF 1.15's rnn did)."""
    rank = x.shape.ndims
    if rank is not None and rank < 2:
        return x
    perm = tf.concat([[1, 0], tf.range(2, tf.rank(x))], 0)
    out = tf.transpose(x, perm)
    if rank is not None:
        out.set_shape(tf.TensorShape([x.shape[1], x.shape[0]]).concatenate(x.shape[2:]))
    return out


def _unstack_ta(inp):
    return tf.TensorArray(dtype=inp.dtype, size=tf.shape(inp)[0],
                          element_shape=inp.shape[1:]).unstack(inp)


class Helper(abc.ABC):
    """Samples a step's output and gives the next inputs (the contract BasicDecoder calls)."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        """The batch size (a scalar int32 tensor or an int)."""

    @property
    @abc.abstractmethod
    def sample_ids_shape(self):
        """The shape of one batch entry's sample ids (a TensorShape)."""

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self):
        """The dtype of the sample ids."""

    @abc.abstractmethod
    def initialize(self, name=None):
        """(finished, first inputs)."""

    @abc.abstractmethod
    def sample(self, time, outputs, state, name=None):
        """The sample ids of a step's outputs."""

    @abc.abstractmethod
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        """(finished, next inputs, next state)."""


class TrainingHelper(Helper):
    """Feeds the ground-truth `inputs` ([batch, time, ...], or time-major) one step at a time."""

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with _v1.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = nest.map_structure(tf.convert_to_tensor, inputs)
            if not time_major:
                inputs = nest.map_structure(_transpose_batch_time, inputs)
            self._input_tas = nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = tf.convert_to_tensor(sequence_length,
                                                         name="sequence_length")
            if self._sequence_length.shape.ndims != 1:
                raise ValueError("TrainingHelper: sequence_length must be a vector; received "
                                 f"shape {self._sequence_length.shape}")
            self._zero_inputs = nest.map_structure(lambda inp: tf.zeros_like(inp[0, :]),
                                                   inputs)
            self._batch_size = tf.size(self._sequence_length)

    @property
    def inputs(self):
        return self._input_tas

    @property
    def sequence_length(self):
        return self._sequence_length

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def _read_or_zeros(self, finished, time):
        return tf.cond(tf.reduce_all(finished), lambda: self._zero_inputs,
                       lambda: nest.map_structure(lambda ta: ta.read(time), self._input_tas))

    def initialize(self, name=None):
        with _v1.name_scope(name, "TrainingHelperInitialize"):
            finished = tf.equal(0, self._sequence_length)
            return finished, self._read_or_zeros(finished, 0)

    def sample(self, time, outputs, name=None, **unused_kwargs):
        with _v1.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        with _v1.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            return finished, self._read_or_zeros(finished, next_time), state


def _embedding_fn(embedding):
    if callable(embedding):
        return embedding
    return lambda ids: _v1.nn.embedding_lookup(embedding, ids)


class GreedyEmbeddingHelper(Helper):
    """Inference: the next input is the embedding of the argmax; finished at `end_token`."""

    def __init__(self, embedding, start_tokens, end_token):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32,
                                                  name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._start_tokens.shape.ndims != 1:
            raise ValueError("start_tokens must be a vector; received shape "
                             f"{self._start_tokens.shape}")
        if self._end_token.shape.ndims != 0:
            raise ValueError(f"end_token must be a scalar; received shape {self._end_token.shape}")
        self._batch_size = tf.size(self._start_tokens)
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return tf.TensorShape([])

    @property
    def sample_ids_dtype(self):
        return tf.int32

    def initialize(self, name=None):
        return tf.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        finished = tf.equal(sample_ids, self._end_token)
        next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                              lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class Decoder(abc.ABC):
    """One decoding step at a time, driven by `dynamic_decode`."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        """The batch size."""

    @property
    @abc.abstractmethod
    def output_size(self):
        """The structure of one batch entry's output shapes (TensorShapes or ints)."""

    @property
    @abc.abstractmethod
    def output_dtype(self):
        """The structure of the output dtypes."""

    @abc.abstractmethod
    def initialize(self, name=None):
        """(finished, first inputs, initial state)."""

    @abc.abstractmethod
    def step(self, time, inputs, state, name=None):
        """(outputs, next state, next inputs, finished)."""

    def finalize(self, outputs, final_state, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """Whether the decoder keeps finished entries finished itself (see dynamic_decode)."""
        return False

    def _rnn_output_size(self):
        """The cell's per-step output size, after `_output_layer` (decoders with both)."""
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        shapes = nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
        out = self._output_layer.compute_output_shape(shapes)
        return nest.map_structure(lambda s: tf.TensorShape(s)[1:], out)


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    pass


class BasicDecoder(Decoder):
    """A cell, a helper and an optional output layer (e.g. a Dense projection to the vocabulary)."""

    def __init__(self, cell, helper, initial_state, output_layer=None):
        if not callable(cell) or not hasattr(cell, "output_size"):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        if output_layer is not None and not callable(output_layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        with _v1.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


def _batch_shape(batch_size, shape):
    if not isinstance(shape, tf.TensorShape) and not isinstance(shape, int):
        shape = tf.TensorShape(shape)
    shape = tf.TensorShape(shape)
    static = tf.get_static_value(tf.convert_to_tensor(batch_size))
    return tf.TensorShape([static]).concatenate(shape)


def _zero_outputs(size, dtype, batch_size):
    def zeros(s, d):
        shape = tf.constant(tf.TensorShape(s).as_list(), dtype=tf.int32)
        return tf.zeros(tf.concat([tf.reshape(tf.cast(batch_size, tf.int32), [1]), shape], 0),
                        dtype=d)
    return nest.map_structure(zeros, size, dtype)


def dynamic_decode(decoder, output_time_major=False, impute_finished=False,
                   maximum_iterations=None, parallel_iterations=32, swap_memory=False,
                   scope=None, **kwargs):
    """Runs `decoder` to the end: (final outputs, final state, final sequence lengths).
    `kwargs`: TF 1.15 read them only for a Keras-style BaseDecoder (not served); ignored."""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with _v1.variable_scope(scope, "decoder") as varscope:
        # Read variables where they are used inside the loop, as TF 1.15 set up.
        if varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32,
                                                      name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError("maximum_iterations must be a scalar; received shape "
                                 f"{maximum_iterations.shape}")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = _zero_outputs(decoder.output_size, decoder.output_dtype,
                                     decoder.batch_size)
        if maximum_iterations is not None:
            initial_finished = tf.logical_or(initial_finished, 0 >= maximum_iterations)
        initial_lengths = tf.zeros_like(initial_finished, dtype=tf.int32)
        initial_outputs_ta = nest.map_structure(
            lambda s, d: tf.TensorArray(dtype=d, size=0, dynamic_size=True,
                                        element_shape=_batch_shape(decoder.batch_size, s)),
            decoder.output_size, decoder.output_dtype)

        def condition(unused_time, unused_ta, unused_state, unused_inputs, finished,
                      unused_lengths):
            return tf.logical_not(tf.reduce_all(finished))

        def body(time, outputs_ta, state, inputs, finished, lengths):
            next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state)
            # TF 1.15 counts lengths here, for every decoder (later releases read a beam
            # search's own lengths from its state; 1.15 did not).
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = tf.logical_or(decoder_finished, finished)
            lengths = _v1.where(tf.logical_not(finished), tf.fill(tf.shape(lengths), time + 1),
                                lengths)
            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(outputs_ta, next_outputs)
            nest.assert_same_structure(inputs, next_inputs)
            if impute_finished:
                emit = nest.map_structure(lambda out, zero: _v1.where(finished, zero, out),
                                          next_outputs, zero_outputs)

                def keep_finished(new, cur):
                    if isinstance(cur, tf.TensorArray):
                        return new
                    new.set_shape(cur.shape)
                    return new if new.shape.ndims == 0 else _v1.where(finished, cur, new)

                next_state = nest.map_structure(keep_finished, decoder_state, state)
            else:
                emit, next_state = next_outputs, decoder_state
            outputs_ta = nest.map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
            return time + 1, outputs_ta, next_state, next_inputs, next_finished, lengths

        result = _v1.while_loop(
            condition, body,
            loop_vars=(tf.constant(0, dtype=tf.int32), initial_outputs_ta, initial_state,
                       initial_inputs, initial_finished, initial_lengths),
            parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
            swap_memory=swap_memory)
        final_outputs = nest.map_structure(lambda ta: ta.stack(), result[1])
        final_state, final_lengths = result[2], result[5]
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_lengths
