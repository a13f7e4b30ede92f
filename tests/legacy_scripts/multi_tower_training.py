"""TF1: data-parallel training on towers with averaged gradients (cifar10_multi_gpu style)."""
import numpy as np
import tensorflow as tf

NUM_GPUS = 2
tf.set_random_seed(1)
rng = np.random.RandomState(1)
features = rng.rand(64, 3).astype("float32")
labels = features.dot(np.array([[1.5], [-2.0], [0.5]], dtype="float32")) + 0.25


def tower_loss(x, y):
    weights = tf.get_variable("weights", [3, 1], initializer=tf.zeros_initializer())
    bias = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
    prediction = tf.matmul(x, weights) + bias
    return tf.reduce_mean(tf.square(prediction - y))


def average_gradients(tower_grads):
    averaged = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(g, 0) for g, _ in grad_and_vars]
        grad = tf.reduce_mean(tf.concat(grads, axis=0), axis=0)
        averaged.append((grad, grad_and_vars[0][1]))
    return averaged


with tf.Graph().as_default(), tf.device("/cpu:0"):
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    x_parts = tf.split(tf.constant(features), NUM_GPUS)
    y_parts = tf.split(tf.constant(labels), NUM_GPUS)
    tower_grads, losses = [], []
    with tf.variable_scope(tf.get_variable_scope()):
        for i in range(NUM_GPUS):
            with tf.device("/gpu:%d" % i), tf.name_scope("tower_%d" % i):
                loss = tower_loss(x_parts[i], y_parts[i])
                tf.get_variable_scope().reuse_variables()
                tower_grads.append(optimizer.compute_gradients(loss))
                losses.append(loss)
    train_op = optimizer.apply_gradients(average_gradients(tower_grads))
    mean_loss = tf.add_n(losses) / NUM_GPUS
    init = tf.global_variables_initializer()

    sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True,
                                            log_device_placement=False))
    sess.run(init)
    for step in range(30):
        _, value = sess.run([train_op, mean_loss])
        if step % 10 == 0:
            print("step %d loss %.4f" % (step, value))
    with tf.variable_scope("", reuse=True):
        print("weights:", np.round(sess.run(tf.get_variable("weights")).ravel().astype("float64"), 3).tolist())
    sess.close()
