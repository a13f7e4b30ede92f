"""Dense training loop fed by feed_dict: 3 dense layers of 1024, Adam, batch 64.

    python dense_feed_dict.py [TIMED_STEPS]   (default 60; 10 warm-up steps first)

Prints one line: `vs_tf1 timed steps=N seconds=S` for the timed steps only.
"""
import sys
import time

import numpy as np
import tensorflow as tf

TIMED = int(sys.argv[1]) if len(sys.argv) > 1 else 60
WARMUP = 10

rng = np.random.RandomState(0)
features = rng.rand(64, 784).astype(np.float32)
labels = rng.randint(0, 10, size=64).astype(np.int64)

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int64, [None])
hidden = x
for width in (1024, 1024, 1024):
    w = tf.Variable(tf.truncated_normal([int(hidden.shape[1]), width], stddev=0.02, seed=1))
    b = tf.Variable(tf.zeros([width]))
    hidden = tf.nn.relu(tf.matmul(hidden, w) + b)
w_out = tf.Variable(tf.truncated_normal([1024, 10], stddev=0.02, seed=2))
logits = tf.matmul(hidden, w_out)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train = tf.train.AdamOptimizer(1e-4).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(WARMUP):
        sess.run(train, feed_dict={x: features, y: labels})
    start = time.perf_counter()
    for _ in range(TIMED):
        sess.run(train, feed_dict={x: features, y: labels})
    seconds = time.perf_counter() - start
    print("loss %.4f" % sess.run(loss, feed_dict={x: features, y: labels}))
print("vs_tf1 timed steps=%d seconds=%.6f" % (TIMED, seconds))
