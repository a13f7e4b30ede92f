"""Linear regression with TF1's eager API: tfe.Variable, tfe.Iterator, tfe.implicit_gradients.

TF 1.x eager scripts switched eager on at startup, trained on batches from a
tf.data Dataset through contrib's eager Iterator and applied the gradients
implicit_gradients found for the variables the loss read.
"""
from __future__ import print_function

import numpy as np
import tensorflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager

rng = np.random.RandomState(7)
features = rng.uniform(-1.0, 1.0, size=(64, 1)).astype(np.float32)
targets = (3.0 * features + 0.5 + 0.05 * rng.randn(64, 1)).astype(np.float32)

dataset = tf.data.Dataset.from_tensor_slices((features, targets)).repeat().batch(16)
batches = tfe.Iterator(dataset)

weight = tfe.Variable(0.1, name="weight")
bias = tfe.Variable(0.0, name="bias")


def model(inputs):
    return inputs * weight + bias


def loss_fn(inputs, labels):
    return tf.reduce_mean(tf.square(model(inputs) - labels))


optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.2)
value_and_grads = tfe.implicit_value_and_gradients(loss_fn)
mean_loss = tfe.metrics.Mean()
print("executing eagerly:", tf.executing_eagerly())
for step in range(12):
    x_batch, y_batch = batches.next()
    loss, grads = value_and_grads(x_batch, y_batch)
    mean_loss(loss)
    optimizer.apply_gradients(grads)
    if step % 3 == 0:
        print("step %2d loss %.6f w %.6f b %.6f" % (step, loss.numpy(), weight.numpy(),
                                                   bias.numpy()))
print("mean loss %.6f over %d steps" % (mean_loss.result().numpy(), 12))
print("full-data loss %.6f" % loss_fn(features, targets).numpy())
