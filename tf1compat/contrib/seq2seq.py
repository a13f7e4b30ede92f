"""`tf.contrib.seq2seq.sequence_loss`: weighted cross-entropy over a batch of sequences.

Contract (TF 1.x `seq2seq/python/ops/loss.py`, as documented): logits
[batch, time, classes], targets [batch, time] (class ids), weights
[batch, time]. The per-step loss is softmax cross-entropy (or
`softmax_loss_function(labels=, logits=)`) times its weight; then

- average_across_timesteps and average_across_batch (the default): a scalar,
  the sum divided by the sum of the weights;
- sum_over_timesteps and sum_over_batch: a scalar, the sum divided by the
  number of non-zero weights;
- otherwise, when one axis is averaged (else summed): a vector over the other
  axis ([time] when reducing the batch, [batch] when reducing time), divided
  the same way along that axis (an average wins over a sum on the other axis);
- none: the weighted losses, [batch, time].
Divisions by zero give 0. Averaging and summing the same axis raises ValueError;
so do logits of a rank other than 3 and targets or weights of a rank other than 2.

The decoders, helpers and attention live in their own modules
(tf1compat.contrib.seq2seq_decode, seq2seq_attention, seq2seq_beam), faithful to
TF 1.15; this module serves them by name, importing each module on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from tf1compat.contrib import registry

# name -> the module that implements it (imported on first use: it needs TensorFlow).
_MODULE_OF = {
    **{name: "tf1compat.contrib.seq2seq_decode" for name in (
        "Helper", "TrainingHelper", "GreedyEmbeddingHelper", "Decoder", "BasicDecoder",
        "BasicDecoderOutput", "dynamic_decode", "tile_batch")},
    **{name: "tf1compat.contrib.seq2seq_attention" for name in (
        "AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
        "AttentionWrapperState")},
    **{name: "tf1compat.contrib.seq2seq_beam" for name in (
        "BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
        "FinalBeamSearchDecoderOutput", "gather_tree")},
}

__all__ = ["sequence_loss", *_MODULE_OF]


def _rank_check(tensor, rank: int, what: str, shape_text: str) -> None:
    if tensor.shape.ndims != rank:
        raise ValueError(f"{what} must be a {shape_text} tensor; received shape {tensor.shape}")


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
    """The weighted cross-entropy of sequences (see the module docstring for the reductions)."""
    import tensorflow as tf

    logits, targets, weights = (tf.convert_to_tensor(t) for t in (logits, targets, weights))
    _rank_check(logits, 3, "Logits", "[batch_size x sequence_length x logits_num_classes]")
    _rank_check(targets, 2, "Targets", "[batch_size x sequence_length]")
    _rank_check(weights, 2, "Weights", "[batch_size x sequence_length]")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True "
                         "at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same "
                         "time.")
    with tf.compat.v1.name_scope(name, "sequence_loss", [logits, targets, weights]):
        classes = tf.shape(logits)[2]
        flat_logits = tf.reshape(logits, [-1, classes])
        flat_targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=flat_targets,
                                                                    logits=flat_logits)
        else:
            losses = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        losses = tf.reshape(losses * tf.reshape(weights, [-1]), tf.shape(logits)[:2])
        weights = tf.cast(weights, losses.dtype)
        if average_across_timesteps and average_across_batch:
            axis, by_weight = None, True
        elif sum_over_timesteps and sum_over_batch:
            axis, by_weight = None, False
        elif average_across_timesteps or average_across_batch:
            axis, by_weight = (0 if average_across_batch else 1), True
        elif sum_over_timesteps or sum_over_batch:
            axis, by_weight = (0 if sum_over_batch else 1), False
        else:
            return losses
        total = tf.reduce_sum(losses, axis=axis)
        if by_weight:
            divisor = tf.reduce_sum(weights, axis=axis)
        else:
            divisor = tf.cast(tf.math.count_nonzero(weights, axis=axis), losses.dtype)
        return tf.math.divide_no_nan(total, divisor)


def __getattr__(name: str) -> Any:
    if name in _MODULE_OF:
        return getattr(importlib.import_module(_MODULE_OF[name]), name)
    return registry.attribute("seq2seq", name)
