"""`tf.contrib.legacy_seq2seq`: the list-of-steps decoder and losses char-RNN scripts use.

Contract (TF 1.x `legacy_seq2seq/python/ops/seq2seq.py`, as documented):

- `rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None)`:
  under the variable scope `scope` (default "rnn_decoder"), runs `cell` over
  the list of 2-D inputs, one step each, reusing the cell's variables after
  the first step; with `loop_function`, every step after the first takes
  `loop_function(previous output, step index)` (built under the scope
  "loop_function", reuse=True) instead of its input. Returns (outputs, the
  last state).
- `basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=float32, scope=None)`:
  under "basic_rnn_seq2seq", `static_rnn` over the encoder inputs (a copy of
  the cell), then `rnn_decoder` from the encoder's last state.
- `sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
  softmax_loss_function=None, name=None)`: lists of [batch, classes] logits,
  [batch] targets and [batch] weights, one per step (ValueError unless the
  three lists have the same length); the per-example sum over steps of
  cross-entropy (or `softmax_loss_function(labels=, logits=)`) times weight,
  divided by the sum of the weights (+1e-12) when averaging across steps.
- `sequence_loss(...)`, the same arguments plus `average_across_batch=True`:
  the sum of `sequence_loss_by_example` over the batch, divided by the batch
  size when averaging across the batch.

The attention and embedding seq2seq models (`embedding_attention_seq2seq`, ...)
are not served: use `tf.contrib.seq2seq`-style code or Keras.
"""

from __future__ import annotations

import copy
from typing import Any

from tf1compat.contrib import registry

__all__ = ["rnn_decoder", "basic_rnn_seq2seq", "sequence_loss_by_example", "sequence_loss"]


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    """Runs `cell` over `decoder_inputs` from `initial_state`; (outputs, last state)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    with v1.variable_scope(scope or "rnn_decoder"):
        state, outputs, previous = initial_state, [], None
        for step, step_input in enumerate(decoder_inputs):
            if loop_function is not None and previous is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    step_input = loop_function(previous, step)
            if step > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(step_input, state)
            outputs.append(output)
            if loop_function is not None:
                previous = output
    return outputs, state


def basic_rnn_seq2seq(encoder_inputs, decoder_inputs, cell, dtype=None, scope=None):
    """Encodes with a copy of `cell`, then decodes from the encoder's last state."""
    import tensorflow as tf

    v1 = tf.compat.v1
    with v1.variable_scope(scope or "basic_rnn_seq2seq"):
        encoder_cell = copy.deepcopy(cell)
        _, state = v1.nn.static_rnn(encoder_cell, encoder_inputs, dtype=dtype or tf.float32)
        return rnn_decoder(decoder_inputs, state, cell)


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                             softmax_loss_function=None, name=None):
    """Per-example weighted cross-entropy summed over the steps, [batch]."""
    import tensorflow as tf

    if not len(targets) == len(logits) == len(weights):
        raise ValueError("Lengths of logits, weights, and targets must be the same "
                         f"{len(logits)}, {len(weights)}, {len(targets)}.")
    with tf.compat.v1.name_scope(name, "sequence_loss_by_example",
                                 list(logits) + list(targets) + list(weights)):
        per_step = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=tf.reshape(target, [-1]), logits=logit)
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            per_step.append(crossent * weight)
        total = tf.add_n(per_step)
        if average_across_timesteps:
            total /= tf.add_n(list(weights)) + 1e-12  # all-zero weights: no division by 0
    return total


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, softmax_loss_function=None, name=None):
    """`sequence_loss_by_example` summed over the batch (and divided by its size)."""
    import tensorflow as tf

    with tf.compat.v1.name_scope(name, "sequence_loss",
                                 list(logits) + list(targets) + list(weights)):
        cost = tf.reduce_sum(sequence_loss_by_example(
            logits, targets, weights, average_across_timesteps=average_across_timesteps,
            softmax_loss_function=softmax_loss_function))
        if average_across_batch:
            return cost / tf.cast(tf.shape(targets[0])[0], cost.dtype)
        return cost


def __getattr__(name: str) -> Any:
    return registry.attribute("legacy_seq2seq", name)
