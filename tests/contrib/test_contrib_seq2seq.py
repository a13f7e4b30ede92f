"""contrib.seq2seq.sequence_loss against a hand computation of every reduction."""

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib.seq2seq import sequence_loss

RNG = np.random.RandomState(0)
LOGITS = RNG.randn(2, 3, 4).astype(np.float32)
TARGETS = np.array([[0, 1, 3], [2, 2, 1]], dtype=np.int32)
WEIGHTS = np.array([[1.0, 1.0, 0.0], [1.0, 0.5, 2.0]], dtype=np.float32)


def crossent():
    shifted = LOGITS - LOGITS.max(-1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    picked = np.take_along_axis(log_softmax, TARGETS[..., None], -1)[..., 0]
    return -picked * WEIGHTS  # [batch, time], weighted


def loss(graph, **kwargs):
    return graph.run(sequence_loss(tf.constant(LOGITS), tf.constant(TARGETS),
                                   tf.constant(WEIGHTS), **kwargs))


def test_default_is_the_weighted_mean_over_everything(graph):
    assert loss(graph) == pytest.approx(crossent().sum() / WEIGHTS.sum(), rel=1e-5)


def test_each_reduction(graph):
    c = crossent()
    nonzero = (WEIGHTS != 0)
    cases = {
        (False, True, False, False): c.sum(0) / WEIGHTS.sum(0),          # [time]
        (True, False, False, False): c.sum(1) / WEIGHTS.sum(1),          # [batch]
        (False, False, True, True): c.sum() / nonzero.sum(),
        (False, False, False, True): c.sum(0) / nonzero.sum(0),
        (False, False, True, False): c.sum(1) / nonzero.sum(1),
        (False, False, False, False): c,
    }
    for (avg_t, avg_b, sum_t, sum_b), expected in cases.items():
        value = loss(graph, average_across_timesteps=avg_t, average_across_batch=avg_b,
                     sum_over_timesteps=sum_t, sum_over_batch=sum_b)
        np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6)


def test_zero_weights_give_zero_not_nan(graph):
    value = graph.run(sequence_loss(tf.constant(LOGITS), tf.constant(TARGETS),
                                    tf.zeros([2, 3])))
    assert value == 0.0


def test_a_custom_loss_function_and_the_errors(graph):
    calls = []

    def custom(labels, logits):
        calls.append(logits.shape.as_list())
        return tf.ones_like(labels, tf.float32)

    assert loss(graph, softmax_loss_function=custom) == pytest.approx(1.0)
    assert calls == [[None, 4]] or calls == [[6, 4]]
    with pytest.raises(ValueError, match="Logits must be"):
        sequence_loss(tf.ones([2, 3]), TARGETS, WEIGHTS)
    with pytest.raises(ValueError, match="Targets must be"):
        sequence_loss(LOGITS, tf.ones([6], tf.int32), WEIGHTS)
    with pytest.raises(ValueError, match="cannot be set to True at same time"):
        sequence_loss(LOGITS, TARGETS, WEIGHTS, sum_over_timesteps=True)
