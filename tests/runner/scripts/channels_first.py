"""A TF1 script that picks cuDNN's layout once it sees a GPU: NCHW convolutions, pools and a
transposed convolution, trained a few steps. Prints the layout it chose and its losses; its
NHWC twin (`--nhwc`) builds the same model in the CPU's layout, for the numbers to agree."""
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.client import device_lib

gpus = [d.name for d in device_lib.list_local_devices() if d.device_type == "GPU"]
nchw = bool(gpus) and "--nhwc" not in sys.argv
layout = "NCHW" if nchw else "NHWC"
print("layout", layout)

rng = np.random.RandomState(0)
images = rng.rand(4, 8, 8, 3).astype(np.float32)
targets = rng.rand(4, 8, 8, 2).astype(np.float32)
conv_w = tf.Variable(rng.randn(3, 3, 3, 4).astype(np.float32) * 0.1)
depth_w = tf.Variable(rng.randn(3, 3, 4, 1).astype(np.float32) * 0.1)
up_w = tf.Variable(rng.randn(3, 3, 2, 4).astype(np.float32) * 0.1)

x = tf.placeholder(tf.float32, [4, 8, 8, 3])
y = tf.placeholder(tf.float32, [4, 8, 8, 2])
with tf.device("/gpu:0" if gpus else "/cpu:0"):
    h = tf.transpose(x, [0, 3, 1, 2]) if nchw else x
    strides = [1, 1, 2, 2] if nchw else [1, 2, 2, 1]
    h = tf.nn.relu(tf.nn.conv2d(h, conv_w, [1, 1, 1, 1], "SAME", data_format=layout))
    h = tf.nn.depthwise_conv2d(h, depth_w, [1, 1, 1, 1], "SAME", data_format=layout)
    pooled = tf.nn.max_pool(h, strides, strides, "VALID", data_format=layout)
    pooled += tf.nn.avg_pool(h, strides, strides, "VALID", data_format=layout)
    out_shape = [4, 2, 8, 8] if nchw else [4, 8, 8, 2]
    up = tf.nn.conv2d_transpose(pooled, up_w, out_shape, strides, "SAME", data_format=layout)
    out = tf.transpose(up, [0, 2, 3, 1]) if nchw else up
    loss = tf.reduce_mean(tf.square(out - y))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

config = tf.ConfigProto(allow_soft_placement=True)
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        value, _ = sess.run([loss, train], {x: images, y: targets})
        print("step %d loss %.6f" % (step, value))
