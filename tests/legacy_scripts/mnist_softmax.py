"""TF1: the MNIST softmax tutorial (input_data reader, argparse + tf.app.run(main, argv))."""
import argparse
import sys

import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

FLAGS = None


def main(_):
    tf.set_random_seed(1)  # also seeds the reader's shuffling (through the graph-level seed)
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, validation_size=100)
    print("train/validation/test:", mnist.train.num_examples, mnist.validation.num_examples,
          mnist.test.num_examples)
    print("labels:", mnist.train.labels.shape, mnist.train.labels.dtype,
          "images:", mnist.train.images.shape, mnist.train.images.dtype)

    x = tf.placeholder(tf.float32, [None, 784])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.matmul(x, W) + b
    y_ = tf.placeholder(tf.float32, [None, 10])
    cross_entropy = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    seen = 0
    for _ in range(FLAGS.steps):
        batch_xs, batch_ys = mnist.train.next_batch(64)
        seen += len(batch_xs)
        sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
    print("examples seen: %d, epochs completed: %d" % (seen, mnist.train.epochs_completed))
    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    print("test accuracy: %.2f" % sess.run(accuracy, feed_dict={x: mnist.test.images,
                                                                 y_: mnist.test.labels}))
    print("weights sum: %.3f" % float(np.abs(sess.run(W)).sum()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/tensorflow/mnist/input_data")
    parser.add_argument("--steps", type=int, default=20)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
