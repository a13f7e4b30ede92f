"""TF1: a small model built with tf.layers, trained for a few steps."""
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
data = rng.rand(16, 4).astype("float32")
target = (data.sum(axis=1, keepdims=True) > 2.0).astype("float32")

inputs = tf.placeholder(tf.float32, [None, 4])
labels = tf.placeholder(tf.float32, [None, 1])
hidden = tf.layers.dense(inputs, 8, activation=tf.nn.relu,
                         kernel_initializer=tf.glorot_uniform_initializer(seed=1))
hidden = tf.layers.dropout(hidden, rate=0.0)
logits = tf.layers.dense(hidden, 1, kernel_initializer=tf.glorot_uniform_initializer(seed=2))
loss = tf.losses.sigmoid_cross_entropy(labels, logits)
train = tf.train.AdamOptimizer(0.05).minimize(loss)

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(20):
    _, value = sess.run([train, loss], {inputs: data, labels: target})
print("final loss: %.3f" % value)
print("trainable variables:", len(tf.trainable_variables()))
