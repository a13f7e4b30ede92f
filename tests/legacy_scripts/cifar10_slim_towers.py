"""TF1: CIFAR-10 binary records through queues into a slim model on two GPU towers.

cifar10_input.py + cifar10_multi_gpu_train.py style: string_input_producer ->
FixedLengthRecordReader -> decode_raw -> shuffle_batch with 4 threads ->
slim.prefetch_queue, one tower per GPU with shared variables, averaged gradients.
"""
import os
import sys

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim

DATA_DIR = sys.argv[1]
NUM_GPUS = 2
BATCH = 8
IMAGE = 24
LABEL_BYTES, HEIGHT, WIDTH, DEPTH = 1, 32, 32, 3
IMAGE_BYTES = HEIGHT * WIDTH * DEPTH


def read_cifar10(filename_queue):
    reader = tf.FixedLengthRecordReader(record_bytes=LABEL_BYTES + IMAGE_BYTES)
    _, value = reader.read(filename_queue)
    record = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(record, [0], [LABEL_BYTES]), tf.int32)
    depth_major = tf.reshape(tf.strided_slice(record, [LABEL_BYTES], [LABEL_BYTES + IMAGE_BYTES]),
                             [DEPTH, HEIGHT, WIDTH])
    return tf.transpose(depth_major, [1, 2, 0]), label


def distorted_inputs():
    filenames = [os.path.join(DATA_DIR, "data_batch_%d.bin" % i) for i in range(1, 6)]
    for name in filenames:
        if not tf.gfile.Exists(name):
            raise ValueError("Failed to find file: " + name)
    filename_queue = tf.train.string_input_producer(filenames, seed=1)
    image, label = read_cifar10(filename_queue)
    image = tf.image.resize_image_with_crop_or_pad(tf.cast(image, tf.float32), IMAGE, IMAGE)
    image = tf.image.per_image_standardization(image)
    image.set_shape([IMAGE, IMAGE, 3])
    label.set_shape([1])
    images, labels = tf.train.shuffle_batch([image, label], batch_size=BATCH, num_threads=4,
                                            capacity=60, min_after_dequeue=20, seed=2)
    return images, tf.reshape(labels, [BATCH])


def inference(images):
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(0.0005),
                        weights_initializer=tf.truncated_normal_initializer(stddev=0.05, seed=4)):
        net = slim.conv2d(images, 8, [5, 5], scope="conv1")
        net = slim.max_pool2d(net, [3, 3], 2, padding="SAME", scope="pool1")
        net = slim.flatten(net)
        net = slim.fully_connected(net, 32, scope="fc1")
        return slim.fully_connected(net, 10, activation_fn=None, scope="logits")


def average_gradients(tower_grads):
    averaged = []
    for grad_and_vars in zip(*tower_grads):
        grad = tf.reduce_mean(tf.stack([g for g, _ in grad_and_vars]), 0)
        averaged.append((grad, grad_and_vars[0][1]))
    return averaged


def count_test_labels():
    """One pass over test_batch.bin with two reader threads: the label histogram."""
    with tf.Graph().as_default():
        queue = tf.train.string_input_producer([os.path.join(DATA_DIR, "test_batch.bin")],
                                               num_epochs=1, shuffle=False)
        _, label = read_cifar10(queue)
        labels = tf.train.batch([tf.reshape(label, [])], batch_size=5, num_threads=2,
                                allow_smaller_final_batch=True)
        counts = np.zeros(10, dtype=np.int64)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            try:
                while not coord.should_stop():
                    counts += np.bincount(sess.run(labels), minlength=10)
            except tf.errors.OutOfRangeError:
                pass
            finally:
                coord.request_stop()
            coord.join(threads)
        return counts.tolist()


with tf.Graph().as_default(), tf.device("/cpu:0"):
    global_step = tf.train.get_or_create_global_step()
    opt = tf.train.GradientDescentOptimizer(0.05)
    images, labels = distorted_inputs()
    batch_queue = slim.prefetch_queue.prefetch_queue([images, labels], capacity=2 * NUM_GPUS)
    tower_grads, tower_losses = [], []
    with tf.variable_scope(tf.get_variable_scope()):
        for i in range(NUM_GPUS):
            with tf.device("/gpu:%d" % i), tf.name_scope("tower_%d" % i) as scope:
                image_batch, label_batch = batch_queue.dequeue()
                logits = inference(image_batch)
                tf.losses.sparse_softmax_cross_entropy(labels=label_batch, logits=logits,
                                                       scope=scope)
                loss = tf.add_n(tf.get_collection(tf.GraphKeys.LOSSES, scope)
                                + tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
                tf.get_variable_scope().reuse_variables()
                tower_grads.append(opt.compute_gradients(loss))
                tower_losses.append(loss)
    train_op = opt.apply_gradients(average_gradients(tower_grads), global_step=global_step)
    mean_loss = tf.add_n(tower_losses) / NUM_GPUS

    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    config.gpu_options.allocator_type = "BFC"
    config.gpu_options.visible_device_list = "0,1"
    sess = tf.Session(config=config)
    sess.run(tf.global_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    values = [sess.run([train_op, mean_loss])[1] for _ in range(6)]
    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=10)
    print("variables:", [v.op.name for v in tf.trainable_variables()])
    print("queue runners:", len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)),
          "regularizers:", len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
    print("global step:", sess.run(global_step), "losses finite:", bool(np.isfinite(values).all()))
    sess.close()

print("test labels:", count_test_labels())
