"""An LSTM over sequences with tf.nn.dynamic_rnn, fed by feed_dict: 20 steps of 32 features,
128 units, batch 32, Adam.

    python rnn_dynamic.py [TIMED_STEPS]   (default 60; 5 warm-up steps first)

Prints one line: `vs_tf1 timed steps=N seconds=S` for the timed steps only.
"""
import sys
import time

import numpy as np
import tensorflow as tf

TIMED = int(sys.argv[1]) if len(sys.argv) > 1 else 60
WARMUP = 5

rng = np.random.RandomState(0)
sequences = rng.rand(32, 20, 32).astype(np.float32)
targets = rng.rand(32, 1).astype(np.float32)

x = tf.placeholder(tf.float32, [None, 20, 32])
y = tf.placeholder(tf.float32, [None, 1])
cell = tf.nn.rnn_cell.LSTMCell(128)
outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
w_out = tf.Variable(tf.truncated_normal([128, 1], stddev=0.1, seed=1))
prediction = tf.matmul(outputs[:, -1, :], w_out)
loss = tf.reduce_mean(tf.square(prediction - y))
train = tf.train.AdamOptimizer(1e-3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(WARMUP):
        sess.run(train, feed_dict={x: sequences, y: targets})
    start = time.perf_counter()
    for _ in range(TIMED):
        sess.run(train, feed_dict={x: sequences, y: targets})
    seconds = time.perf_counter() - start
    print("loss %.4f" % sess.run(loss, feed_dict={x: sequences, y: targets}))
print("vs_tf1 timed steps=%d seconds=%.6f" % (TIMED, seconds))
