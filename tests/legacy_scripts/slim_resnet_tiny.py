"""TF1: a tiny ResNet from slim.nets (resnet_v1 blocks under resnet_arg_scope, the script's own
initializer and a logits layer set through slim.arg_scope) trained a few steps with its batch
norm updates, saved, and restored into a fresh graph by slim.assign_from_checkpoint_fn."""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.slim.nets import resnet_v1

slim = tf.contrib.slim
save_dir = sys.argv[1]
rng = np.random.RandomState(0)
images = rng.uniform(-1, 1, [8, 32, 32, 3]).astype(np.float32)
labels = rng.randint(0, 3, [8]).astype(np.int64)
BLOCKS = [resnet_v1.resnet_v1_block("block1", base_depth=4, num_units=2, stride=2),
          resnet_v1.resnet_v1_block("block2", base_depth=8, num_units=1, stride=1)]


def model(inputs, is_training):
    with slim.arg_scope(resnet_v1.resnet_arg_scope(weight_decay=1e-4)):
        # seeded initializers: the nets' defaults take only the graph seed
        with slim.arg_scope([slim.conv2d],
                            weights_initializer=tf.truncated_normal_initializer(0.0, 0.2, seed=1)):
            net, end_points = resnet_v1.resnet_v1(inputs, BLOCKS, num_classes=None,
                                                  is_training=is_training, scope="tiny")
            logits = slim.conv2d(net, 3, [1, 1], activation_fn=None, normalizer_fn=None,
                                 scope="logits")
    return tf.squeeze(logits, [1, 2]), end_points


logits, end_points = model(tf.constant(images), True)
loss = tf.losses.sparse_softmax_cross_entropy(labels, logits) + tf.losses.get_regularization_loss()
updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(updates):
    train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
print("variables %d, batch norm updates %d, regularized %d" % (
    len(tf.global_variables()), len(updates),
    len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))))
print("end points: %s" % sorted(end_points)[:4])
saver = tf.train.Saver(slim.get_model_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train_op, loss])
        print("step %d loss %.4f" % (step, value))
    path = saver.save(sess, os.path.join(save_dir, "tiny.ckpt"))
    trained = sess.run(logits)

with tf.Graph().as_default():
    restored_logits, _ = model(tf.constant(images), False)
    init_fn = slim.assign_from_checkpoint_fn(path, slim.get_model_variables())
    with tf.Session() as sess:
        init_fn(sess)
        print("restored logits[0] %s" % np.round(sess.run(restored_logits)[0], 3))
print("trained logits[0] %s" % np.round(trained[0], 3))
names = [name for name, _ in tf.train.list_variables(path)]
print("checkpoint: %d variables, first %s" % (len(names), names[:3]))
