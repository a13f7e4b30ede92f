"""Two towers on 2 logical CPUs (ConfigProto device_count CPU=2): each tower a dense model
on half the batch under tf.device, the gradients averaged with tf.add_n, one Adam step.

    python towers_cpu2.py [TIMED_STEPS]   (default 800; 10 warm-up steps first)

Prints one line: `vs_tf1 timed steps=N seconds=S` for the timed steps only.
"""
import sys
import time

import numpy as np
import tensorflow as tf

TIMED = int(sys.argv[1]) if len(sys.argv) > 1 else 800
WARMUP = 10

rng = np.random.RandomState(0)
features = rng.rand(128, 256).astype(np.float32)
labels = rng.randint(0, 10, size=128).astype(np.int64)

x = tf.placeholder(tf.float32, [None, 256])
y = tf.placeholder(tf.int64, [None])
with tf.device("/cpu:0"):
    w1 = tf.Variable(tf.truncated_normal([256, 512], stddev=0.05, seed=1))
    w2 = tf.Variable(tf.truncated_normal([512, 10], stddev=0.05, seed=2))
optimizer = tf.train.AdamOptimizer(1e-3)
tower_gradients, tower_losses = [], []
for tower, (xs, ys) in enumerate(zip(tf.split(x, 2), tf.split(y, 2))):
    with tf.device("/cpu:%d" % tower):
        logits = tf.matmul(tf.nn.relu(tf.matmul(xs, w1)), w2)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ys,
                                                                             logits=logits))
        tower_losses.append(loss)
        tower_gradients.append(optimizer.compute_gradients(loss, [w1, w2]))
with tf.device("/cpu:0"):
    averaged = [(tf.add_n([g[i][0] for g in tower_gradients]) / 2.0, tower_gradients[0][i][1])
                for i in range(2)]
    train = optimizer.apply_gradients(averaged)
    mean_loss = tf.add_n(tower_losses) / 2.0

config = tf.ConfigProto(device_count={"CPU": 2}, allow_soft_placement=True)
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(WARMUP):
        sess.run(train, feed_dict={x: features, y: labels})
    start = time.perf_counter()
    for _ in range(TIMED):
        sess.run(train, feed_dict={x: features, y: labels})
    seconds = time.perf_counter() - start
    print("loss %.4f" % sess.run(mean_loss, feed_dict={x: features, y: labels}))
print("vs_tf1 timed steps=%d seconds=%.6f" % (TIMED, seconds))
