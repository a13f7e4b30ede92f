"""TF1: a model driven by contrib.training.HParams: defaults in code, overrides parsed from a
command-line string (`--hparams "learning_rate=0.3,hidden=[6,4],..."`), values() and the JSON
form printed, then a small regression network built and trained from them."""
import argparse
import json

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--hparams", default="", help="comma-separated name=value overrides")
args = parser.parse_args()

hparams = tf.contrib.training.HParams(learning_rate=0.1, hidden=[8], activation="relu",
                                      train_steps=10, use_bias=True, optimizer="sgd")
hparams.parse(args.hparams)
hparams.add_hparam("batch_size", 16)
print("hparams:", json.dumps(hparams.values(), sort_keys=True))
print("json:", hparams.to_json(sort_keys=True))
print("learning rate:", hparams.learning_rate, type(hparams.learning_rate).__name__)
try:
    hparams.parse("train_steps=2.5")
except ValueError as error:
    print("refused:", error)

rng = np.random.RandomState(0)
x_data = rng.randn(hparams.batch_size, 3).astype(np.float32)
y_data = (x_data @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
activation = {"relu": tf.nn.relu, "tanh": tf.nn.tanh}[hparams.activation]
net = x
for index, width in enumerate(hparams.hidden):
    net = tf.layers.dense(net, width, activation=activation, use_bias=hparams.use_bias,
                          kernel_initializer=tf.glorot_uniform_initializer(seed=index + 1),
                          name="hidden%d" % index)
prediction = tf.layers.dense(net, 1, kernel_initializer=tf.glorot_uniform_initializer(seed=9),
                             name="out")
loss = tf.losses.mean_squared_error(y, prediction)
optimizers = {"sgd": tf.train.GradientDescentOptimizer,
              "momentum": lambda rate: tf.train.MomentumOptimizer(rate, 0.9),
              "adam": tf.train.AdamOptimizer}
train_op = optimizers[hparams.optimizer](hparams.learning_rate).minimize(loss)
for v in tf.trainable_variables():
    print("variable:", v.op.name, v.shape.as_list())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: x_data, y: y_data}
    print("loss before: %.5f" % sess.run(loss, feed))
    for step in range(hparams.train_steps):
        _, value = sess.run([train_op, loss], feed)
    print("loss after %d steps: %.5f" % (hparams.train_steps, value))
