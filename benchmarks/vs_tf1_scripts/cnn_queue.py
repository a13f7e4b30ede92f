"""A small CNN trained from a queue pipeline: slice_input_producer + tf.train.batch over
generated images, queue runners started by a Coordinator.

    python cnn_queue.py [TIMED_STEPS]   (default 60; 10 warm-up steps first)

Prints one line: `vs_tf1 timed steps=N seconds=S` for the timed steps only.
"""
import sys
import time

import numpy as np
import tensorflow as tf

TIMED = int(sys.argv[1]) if len(sys.argv) > 1 else 60
WARMUP = 10

rng = np.random.RandomState(0)
images = rng.rand(2048, 28, 28, 1).astype(np.float32)
classes = rng.randint(0, 10, size=2048).astype(np.int32)

image, label = tf.train.slice_input_producer([images, classes], shuffle=True, seed=1)
batch_images, batch_labels = tf.train.batch([image, label], batch_size=64, num_threads=2,
                                            capacity=512)


def conv(inputs, out_channels, seed):
    in_channels = int(inputs.shape[-1])
    kernel = tf.Variable(tf.truncated_normal([3, 3, in_channels, out_channels], stddev=0.1,
                                             seed=seed))
    bias = tf.Variable(tf.zeros([out_channels]))
    hidden = tf.nn.relu(tf.nn.conv2d(inputs, kernel, strides=[1, 1, 1, 1], padding="SAME")
                        + bias)
    return tf.nn.max_pool(hidden, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


hidden = conv(conv(batch_images, 16, 1), 32, 2)
flat = tf.reshape(hidden, [-1, 7 * 7 * 32])
w_out = tf.Variable(tf.truncated_normal([7 * 7 * 32, 10], stddev=0.05, seed=3))
logits = tf.matmul(flat, w_out)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=batch_labels,
                                                                     logits=logits))
train = tf.train.AdamOptimizer(1e-3).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    coordinator = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coordinator)
    for _ in range(WARMUP):
        sess.run(train)
    start = time.perf_counter()
    for _ in range(TIMED):
        sess.run(train)
    seconds = time.perf_counter() - start
    print("loss %.4f" % sess.run(loss))
    coordinator.request_stop()
    coordinator.join(threads)
print("vs_tf1 timed steps=%d seconds=%.6f" % (TIMED, seconds))
