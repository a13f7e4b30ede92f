"""The three RNN cells `tf.contrib.crf` runs through `dynamic_rnn`, as TF 1.15 defines them.

Each cell holds no variables: it is one step of a dynamic-programming pass over
the time axis. They are plain objects with the cell protocol `dynamic_rnn`
asks for (`state_size`, `output_size`, `zero_state`, call), so they need
neither legacy Keras nor Keras 3.

- `CrfForwardRnnCell(transitions)`: state and output are the forward scores
  ("alphas") [batch, tags]: new = unaries + logsumexp over the previous tag
  of (alphas + transitions).
- `CrfDecodeForwardRnnCell(transitions)`: the same with max instead of
  logsumexp; outputs the argmax (int32 backpointers), keeps the max as state.
- `CrfDecodeBackwardRnnCell(num_tags)`: state [batch, 1] is the tag at the
  next step; reads its backpointer, which is the output and the new state.
"""

from __future__ import annotations

from tf1compat.shared.lazy_tf import tensorflow_v1 as _tf


def _num_tags(transition_params):
    import tensorflow as tf

    return tf.compat.dimension_value(transition_params.shape[0])


class _StatelessCell:
    """What `dynamic_rnn` needs from a cell that has no variables."""

    state_size: int
    output_size: int

    def zero_state(self, batch_size, dtype):
        tf = _tf()
        return tf.zeros(tf.stack([batch_size, self.state_size]), dtype=dtype)


class CrfForwardRnnCell(_StatelessCell):
    """One step of the forward algorithm of a linear-chain CRF (log space)."""

    def __init__(self, transition_params):
        """Args: transition_params: the [tags, tags] transition scores."""
        self._transition_params = _tf().expand_dims(transition_params, 0)  # [1, tags, tags]
        self._num_tags = _num_tags(transition_params)

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags

    def __call__(self, inputs, state, scope=None):
        """inputs: [batch, tags] unaries; state: [batch, tags] alphas -> (alphas, alphas)."""
        tf = _tf()
        # [batch, previous, 1] + [1, previous, tag]: every path into every tag
        scores = tf.expand_dims(state, 2) + self._transition_params
        alphas = inputs + tf.reduce_logsumexp(scores, [1])
        return alphas, alphas


class CrfDecodeForwardRnnCell(_StatelessCell):
    """One step of Viterbi's forward pass: the best score into each tag, and from where."""

    def __init__(self, transition_params):
        """Args: transition_params: the [tags, tags] transition scores."""
        self._transition_params = _tf().expand_dims(transition_params, 0)
        self._num_tags = _num_tags(transition_params)

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags

    def __call__(self, inputs, state, scope=None):
        """inputs: [batch, tags]; state: [batch, tags] -> (int32 backpointers, new scores)."""
        tf = _tf()
        scores = tf.expand_dims(state, 2) + self._transition_params  # [batch, previous, tag]
        best = inputs + tf.reduce_max(scores, [1])
        backpointers = tf.cast(tf.argmax(scores, 1), dtype=tf.int32)
        return backpointers, best


class CrfDecodeBackwardRnnCell(_StatelessCell):
    """One step of Viterbi's backward pass: follows a backpointer one step back."""

    def __init__(self, num_tags):
        """Args: num_tags: the number of tags."""
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        """inputs: [batch, tags] backpointers; state: [batch, 1] tags -> (tags, tags)."""
        tf = _tf()
        tags = tf.squeeze(state, axis=[1])
        rows = tf.range(tf.shape(inputs)[0])
        previous = tf.expand_dims(tf.gather_nd(inputs, tf.stack([rows, tags], axis=1)), axis=-1)
        return previous, previous
