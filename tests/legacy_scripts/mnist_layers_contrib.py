"""TF1: a small MNIST CNN on tf.layers with tf.contrib.layers helpers (cnn_mnist.py style)."""
import sys

import numpy as np
import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

tf.logging.set_verbosity(tf.logging.INFO)
data_dir = sys.argv[1]

mnist = input_data.read_data_sets(data_dir, one_hot=False, reshape=False, validation_size=0,
                                  seed=7)
print("images:", mnist.train.images.shape, "labels:", mnist.train.labels.dtype.name)

tf.set_random_seed(3)
images = tf.placeholder(tf.float32, [None, 28, 28, 1])
labels = tf.placeholder(tf.int64, [None])
training = tf.placeholder_with_default(False, [])
regularizer = tf.contrib.layers.l2_regularizer(scale=0.001)
init = tf.contrib.layers.xavier_initializer(seed=5)

conv = tf.layers.conv2d(images, 4, [5, 5], padding="same", activation=tf.nn.relu,
                        kernel_initializer=init, kernel_regularizer=regularizer, name="conv1")
pool = tf.layers.max_pooling2d(conv, pool_size=[2, 2], strides=2)
flat = tf.contrib.layers.flatten(pool)
print("flattened:", flat.shape.as_list())
hidden = tf.contrib.layers.fully_connected(flat, 32, weights_initializer=init,
                                           weights_regularizer=regularizer)
hidden = tf.layers.dropout(hidden, rate=0.25, training=training, seed=1)
logits = tf.contrib.layers.fully_connected(hidden, 10, activation_fn=None,
                                           weights_initializer=init, scope="logits")

global_step = tf.contrib.framework.get_or_create_global_step()
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
total_loss = loss + tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
train_op = tf.train.AdamOptimizer(0.01).minimize(total_loss, global_step=global_step)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

print("model variables:", [v.op.name for v in tf.contrib.framework.get_model_variables()])
print("regularization losses:", len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(30):
        batch_images, batch_labels = mnist.train.next_batch(50, shuffle=False)
        _, value = sess.run([train_op, loss], {images: batch_images, labels: batch_labels,
                                               training: True})
        if step % 10 == 0:
            tf.logging.info("step %d loss %.3f", step, value)
    test_accuracy = sess.run(accuracy, {images: mnist.test.images, labels: mnist.test.labels})
    print("global step:", sess.run(global_step))
    print("test accuracy: %.2f" % test_accuracy)
    print("epochs completed:", mnist.train.epochs_completed, "conv kernel sum: %.2f"
          % float(np.abs(sess.run(tf.get_default_graph().get_tensor_by_name(
              "conv1/kernel:0"))).sum()))
