"""`tf.contrib.crf`: a linear-chain conditional random field on `tf.compat.v1` ops.

TF 1.x taggers put a CRF on top of per-token scores ("unaries", shape
[batch, time, tags]): `crf_log_likelihood` gives each sequence's log
probability under a [tags, tags] transition matrix, `crf_decode` (graph) or
`viterbi_decode` (numpy) its best tag path. TensorFlow Addons, which carried
these after contrib, has no release for TF 2.21, so they are written here,
to TF 1.15's contract:

- `crf_log_likelihood(inputs, tags, lengths)` without `transition_params`
  creates the variable `transitions` ([tags, tags], `get_variable`'s default
  initializer) in the current variable scope, the name TF1 checkpoints hold;
- a sequence of length 0 scores 0 and normalises to 0; positions past a
  sequence's length are ignored (the forward pass runs `dynamic_rnn` with
  `lengths - 1` steps, as TF1 did, so the state is carried through padding);
- a time dimension of 1 takes the shortcut TF1 took (a gather / a
  logsumexp / an argmax), decided statically when the shape is known and with
  `tf.cond` otherwise;
- `crf_decode` returns int32 tags; `viterbi_decode` returns a Python list of
  numpy ints and the best score, ties broken towards the lowest tag, as
  `np.argmax` does.

>>> import numpy as np
>>> path, score = viterbi_decode(np.array([[1., 0.], [0., 1.]]), np.zeros((2, 2)))
>>> [int(tag) for tag in path], float(score)
([0, 1], 2.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tf1compat.contrib import registry
from tf1compat.contrib.crf_cells import (CrfDecodeBackwardRnnCell, CrfDecodeForwardRnnCell,
                                         CrfForwardRnnCell)
from tf1compat.shared.lazy_tf import tensorflow_v1 as _tf

__all__ = ["crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score",
           "crf_binary_score", "crf_multitag_sequence_score", "viterbi_decode", "crf_decode",
           "CrfForwardRnnCell", "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell"]


def _static(tensor, axis):
    """The static size of `axis` as an int or None (a v1 `Dimension` under TF1 shapes too)."""
    import tensorflow as tf

    if tensor.shape.rank is None:
        return None
    return tf.compat.dimension_value(tensor.shape[axis])


def _by_length(tensor, one_step, many_steps):
    """`one_step()` when the time dimension (axis 1) is 1, else `many_steps()`.

    Decided now when the static shape says, in the graph (`tf.cond`) otherwise.
    """
    tf = _tf()
    steps = _static(tensor, 1)
    if steps is not None:
        return one_step() if steps == 1 else many_steps()
    return tf.cond(tf.equal(tf.shape(tensor)[1], 1), one_step, many_steps)


def _zero_where_empty(values, sequence_lengths):
    tf = _tf()
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(values), values)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """The unnormalised score of each tag sequence: its unaries plus its transitions.

    Args:
      inputs: [batch, time, tags] float unary potentials.
      tag_indices: [batch, time] int32/int64 tags.
      sequence_lengths: [batch] true lengths.
      transition_params: [tags, tags] transition scores (from row tag to column tag).

    Returns:
      A [batch] float tensor.
    """
    tf = _tf()

    def one_step():
        batch = tf.shape(inputs, out_type=tag_indices.dtype)[0]
        rows = tf.reshape(tf.range(batch, dtype=tag_indices.dtype), [-1, 1])
        picked = tf.gather_nd(tf.squeeze(inputs, [1]), tf.concat([rows, tag_indices], axis=1))
        return _zero_where_empty(picked, sequence_lengths)

    def many_steps():
        return (crf_unary_score(tag_indices, sequence_lengths, inputs)
                + crf_binary_score(tag_indices, sequence_lengths, transition_params))

    return _by_length(inputs, one_step, many_steps)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """The log of the summed scores of every tag sequence `tag_bitmap` allows.

    Args:
      tag_bitmap: [batch, time, tags] bool, the tags allowed at each step (one-hot rows
        give `crf_sequence_score`).

    Returns:
      A [batch] float tensor.
    """
    tf = _tf()
    allowed = tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))
    return _by_length(
        inputs, lambda: tf.reduce_logsumexp(allowed, axis=[1, 2], keepdims=False),
        lambda: crf_log_norm(allowed, sequence_lengths, transition_params))


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """log Z: the log of the summed scores of all tag sequences (the forward algorithm).

    Returns:
      A [batch] float tensor; 0 for sequences of length 0.
    """
    tf = _tf()
    first = tf.squeeze(tf.slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

    def one_step():
        return _zero_where_empty(tf.reduce_logsumexp(first, [1]), sequence_lengths)

    def many_steps():
        rest = tf.slice(inputs, [0, 1, 0], [-1, -1, -1])
        steps = tf.maximum(tf.constant(0, dtype=sequence_lengths.dtype), sequence_lengths - 1)
        _, alphas = tf.nn.dynamic_rnn(cell=CrfForwardRnnCell(transition_params), inputs=rest,
                                      sequence_length=steps, initial_state=first,
                                      dtype=tf.float32)
        return _zero_where_empty(tf.reduce_logsumexp(alphas, [1]), sequence_lengths)

    return _by_length(inputs, one_step, many_steps)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """The log-likelihood of each tag sequence under the CRF.

    Args:
      inputs: [batch, time, tags] unary potentials (the tag count must be static).
      tag_indices: [batch, time] gold tags.
      sequence_lengths: [batch] true lengths.
      transition_params: [tags, tags]; None creates the variable `transitions` in the
        current variable scope (`tf.get_variable('transitions', [tags, tags])`).

    Returns:
      (log_likelihood [batch], transition_params).

    Raises:
      ValueError: transition_params is None and the tag count is not known statically.
    """
    tf = _tf()
    num_tags = _static(inputs, 2)
    if transition_params is None:
        if num_tags is None:
            raise ValueError(f"crf_log_likelihood needs the number of tags (inputs' last "
                             f"dimension) to create its transitions variable; received "
                             f"inputs of shape {inputs.shape}: pass transition_params or give "
                             f"inputs a static last dimension")
        transition_params = tf.get_variable("transitions", [num_tags, num_tags])
    scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    return scores - crf_log_norm(inputs, sequence_lengths, transition_params), transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """The sum of each sequence's unary potentials at its tags, up to its length.

    Returns:
      A [batch] float tensor.
    """
    tf = _tf()
    shape = tf.shape(inputs)
    batch, steps, tags = shape[0], shape[1], shape[2]
    # the position of inputs[b, t, tag] in the flat tensor: (b * steps + t) * tags + tag
    offsets = (tf.expand_dims(tf.range(batch) * steps * tags, 1)
               + tf.expand_dims(tf.range(steps) * tags, 0))
    if tag_indices.dtype == tf.int64:
        offsets = tf.cast(offsets, tf.int64)
    picked = tf.reshape(tf.gather(tf.reshape(inputs, [-1]),
                                  tf.reshape(offsets + tag_indices, [-1])), [batch, steps])
    mask = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(picked * mask, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """The sum of each sequence's transition scores between consecutive tags, up to its length.

    Returns:
      A [batch] float tensor.
    """
    tf = _tf()
    num_tags = _static(transition_params, 0)
    if num_tags is None:  # TF1 needed it static; the graph's value does the same job
        num_tags = tf.shape(transition_params, out_type=tag_indices.dtype)[0]
    transitions = tf.shape(tag_indices)[1] - 1
    starts = tf.slice(tag_indices, [0, 0], [-1, transitions])
    ends = tf.slice(tag_indices, [0, 1], [-1, transitions])
    scores = tf.gather(tf.reshape(transition_params, [-1]), starts * num_tags + ends)
    mask = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(scores * tf.slice(mask, [0, 1], [-1, -1]), 1)


def viterbi_decode(score, transition_params):
    """The best tag sequence of one unpadded sequence, in numpy (TF1 meant it for test time).

    Args:
      score: [time, tags] unary potentials of one sequence (padding removed).
      transition_params: [tags, tags] transition scores.

    Returns:
      (a list of `time` tag indices, the best score).
    """
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for step in range(1, score.shape[0]):
        # candidates[previous, tag]: the best path ending in `previous`, then `tag`
        candidates = np.expand_dims(trellis[step - 1], 1) + transition_params
        trellis[step] = score[step] + np.max(candidates, 0)
        backpointers[step] = np.argmax(candidates, 0)
    path = [np.argmax(trellis[-1])]
    for pointers in backpointers[:0:-1]:
        path.append(pointers[path[-1]])
    path.reverse()
    return path, np.max(trellis[-1])


def crf_decode(potentials, transition_params, sequence_length):
    """The best tag sequence of each sequence, in the graph.

    Args:
      potentials: [batch, time, tags] unary potentials (the tag count must be static).
      transition_params: [tags, tags] transition scores.
      sequence_length: [batch] true lengths.

    Returns:
      (decode_tags [batch, time] int32, best_score [batch]).
    """
    tf = _tf()

    def one_step():
        squeezed = tf.squeeze(potentials, [1])
        tags = tf.expand_dims(tf.argmax(squeezed, axis=1), 1)
        return tf.cast(tags, dtype=tf.int32), tf.reduce_max(squeezed, axis=1)

    def many_steps():
        num_tags = _static(potentials, 2)
        first = tf.squeeze(tf.slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1])
        rest = tf.slice(potentials, [0, 1, 0], [-1, -1, -1])
        steps = tf.maximum(tf.constant(0, dtype=sequence_length.dtype), sequence_length - 1)
        backpointers, last_score = tf.nn.dynamic_rnn(
            CrfDecodeForwardRnnCell(transition_params), inputs=rest, sequence_length=steps,
            initial_state=first, time_major=False, dtype=tf.int32)
        backpointers = tf.reverse_sequence(backpointers, steps, seq_axis=1)
        last_tag = tf.expand_dims(tf.cast(tf.argmax(last_score, axis=1), dtype=tf.int32), -1)
        # walk the reversed backpointers from the best last tag: tags from the end backwards
        earlier, _ = tf.nn.dynamic_rnn(
            CrfDecodeBackwardRnnCell(num_tags), inputs=backpointers, sequence_length=steps,
            initial_state=last_tag, time_major=False, dtype=tf.int32)
        reversed_tags = tf.concat([last_tag, tf.squeeze(earlier, axis=[2])], axis=1)
        tags = tf.reverse_sequence(reversed_tags, sequence_length, seq_axis=1)
        return tags, tf.reduce_max(last_score, axis=1)

    return _by_length(potentials, one_step, many_steps)


def __getattr__(name: str) -> Any:
    return registry.attribute("crf", name)
