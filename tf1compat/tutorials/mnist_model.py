"""The old MNIST tutorial model (`tensorflow.examples.tutorials.mnist.mnist`), as TF1 graph code.

TF 1.x shipped this module next to `input_data`; `fully_connected_feed.py`
and the reading-data examples import it. TF 2.21 has neither. Contract:

- `NUM_CLASSES = 10`, `IMAGE_SIZE = 28`, `IMAGE_PIXELS = 784`.
- `inference(images, hidden1_units, hidden2_units)`: two ReLU layers and a
  linear one, under the name scopes `hidden1`, `hidden2` and
  `softmax_linear`, each with the variables `weights` (truncated normal,
  stddev 1/sqrt(fan-in)) and `biases` (zeros); returns the logits
  [batch, NUM_CLASSES]. The variable names are the old ones, so old
  checkpoints restore.
- `loss(logits, labels)`: the mean sparse softmax cross entropy (labels cast
  to int64), added to the `losses` collection as `tf.losses` does.
- `training(loss, learning_rate)`: a `loss` scalar summary, a non-trainable
  `global_step` variable, and `GradientDescentOptimizer.minimize`, which
  increments it; returns the train op.
- `evaluation(logits, labels)`: the int32 count of examples whose label is
  the top logit (`in_top_k` with k=1).

The graph is built with `tf.compat.v1`, so it is the same whether the caller
runs under `tf1compat run` or was rewritten by `tf1compat migrate`.
"""

from __future__ import annotations

import math

NUM_CLASSES = 10
IMAGE_SIZE = 28
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE


def _v1():
    import tensorflow as tf

    return tf.compat.v1


def _layer(v1, name: str, inputs, fan_in: int, units: int, relu: bool):
    with v1.name_scope(name):
        weights = v1.Variable(
            v1.truncated_normal([fan_in, units], stddev=1.0 / math.sqrt(float(fan_in))),
            name="weights")
        biases = v1.Variable(v1.zeros([units]), name="biases")
        out = v1.matmul(inputs, weights) + biases
        return v1.nn.relu(out) if relu else out


def inference(images, hidden1_units: int, hidden2_units: int):
    """The logits of the two-hidden-layer model for `images` [batch, IMAGE_PIXELS]."""
    v1 = _v1()
    hidden1 = _layer(v1, "hidden1", images, IMAGE_PIXELS, hidden1_units, relu=True)
    hidden2 = _layer(v1, "hidden2", hidden1, hidden1_units, hidden2_units, relu=True)
    return _layer(v1, "softmax_linear", hidden2, hidden2_units, NUM_CLASSES, relu=False)


def loss(logits, labels):
    """The mean cross entropy of `logits` against the class ids `labels`."""
    v1 = _v1()
    return v1.losses.sparse_softmax_cross_entropy(labels=v1.cast(labels, "int64"), logits=logits)


def training(loss, learning_rate):
    """The op that takes one gradient-descent step on `loss` and counts it in `global_step`."""
    v1 = _v1()
    v1.summary.scalar("loss", loss)
    optimizer = v1.train.GradientDescentOptimizer(learning_rate)
    global_step = v1.Variable(0, name="global_step", trainable=False)
    return optimizer.minimize(loss, global_step=global_step)


def evaluation(logits, labels):
    """How many of the batch's examples have their label as the top logit (int32 scalar)."""
    v1 = _v1()
    correct = v1.nn.in_top_k(logits, labels, 1)
    return v1.reduce_sum(v1.cast(correct, "int32"))
