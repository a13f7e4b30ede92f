"""One tower per GPU, the way TF1's multi-GPU tutorials build them (cifar10_multi_gpu_train).

The GPUs are counted with device_lib; variables live on the CPU, each tower computes its
gradients on its GPU, and their average is applied once. `--num_gpus N --tower_device cpu`
builds the same towers on N CPU devices (for a TensorFlow without GPUs).
"""
import json
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.client import device_lib

flags = tf.app.flags
flags.DEFINE_integer("num_gpus", -1, "towers (-1: one per GPU that device_lib lists)")
flags.DEFINE_string("tower_device", "gpu", "the device type the towers are pinned to")
flags.DEFINE_integer("cpus", 0, "CPU devices of the session (0: TensorFlow's default)")
flags.DEFINE_integer("steps", 5, "training steps")
FLAGS = flags.FLAGS
BATCH = 16


def result(name, value):
    print("RESULT " + json.dumps({name: value}, sort_keys=True))


def tower_loss(images, labels):
    with tf.device("/cpu:0"):  # the variables live on the CPU, shared by every tower
        weights = tf.get_variable("weights", [4, 1], initializer=tf.constant_initializer(
            np.linspace(-0.5, 0.5, 4).reshape(4, 1)))
        bias = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
    return tf.reduce_mean(tf.square(tf.matmul(images, weights) + bias - labels))


def average_gradients(tower_grads):
    averaged = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(grad, 0) for grad, _ in grad_and_vars]
        averaged.append((tf.reduce_mean(tf.concat(grads, 0), 0), grad_and_vars[0][1]))
    return averaged


def main(_):
    gpus = [d for d in device_lib.list_local_devices() if d.device_type == "GPU"]
    result("gpus", {"names": [d.name for d in gpus],
                    "mapped": [d.physical_device_desc.split("name: ")[-1] for d in gpus],
                    "is_gpu_available": tf.test.is_gpu_available(),
                    "gpu_device_name": tf.test.gpu_device_name(),
                    "physical": len(tf.config.experimental.list_physical_devices("GPU"))})
    towers = len(gpus) if FLAGS.num_gpus < 0 else FLAGS.num_gpus
    if towers < 1 or BATCH % towers:
        sys.exit("this script needs 1, 2, 4, 8 or 16 GPUs; device_lib lists %d" % len(gpus))
    rng = np.random.RandomState(0)
    images = rng.randn(BATCH, 4).astype(np.float32)
    labels = images.dot([[1.0], [-2.0], [0.5], [3.0]]).astype(np.float32) + 0.5
    with tf.device("/cpu:0"):
        global_step = tf.train.get_or_create_global_step()
        optimizer = tf.train.GradientDescentOptimizer(0.1)
        image_parts = tf.split(tf.constant(images), towers)
        label_parts = tf.split(tf.constant(labels), towers)
    tower_grads, losses = [], []
    with tf.variable_scope(tf.get_variable_scope()):
        for i in range(towers):
            with tf.device("/%s:%d" % (FLAGS.tower_device, i)), tf.name_scope("tower_%d" % i):
                loss = tower_loss(image_parts[i], label_parts[i])
                tf.get_variable_scope().reuse_variables()
                tower_grads.append(optimizer.compute_gradients(loss))
                losses.append(loss)
    train_op = optimizer.apply_gradients(average_gradients(tower_grads), global_step=global_step)
    mean_loss = tf.add_n(losses) / towers
    config = tf.ConfigProto(device_count={"CPU": FLAGS.cpus}) if FLAGS.cpus else None
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        options = tf.RunOptions(output_partition_graphs=True)
        metadata = tf.RunMetadata()
        step_losses = [float(sess.run([mean_loss, train_op], options=options,
                                      run_metadata=metadata)[0])]
        step_losses += [float(sess.run([mean_loss, train_op])[0]) for _ in range(FLAGS.steps - 1)]
        placement = {}
        for graph in metadata.partition_graphs:
            for node in graph.node:
                scope = node.name.split("/")[0]
                if scope.startswith("tower_") and not node.op.startswith("_"):  # not _Send/_Recv
                    placement.setdefault(scope, set()).add(node.device.split("device:")[-1])
        result("towers", towers)
        result("losses", step_losses)
        result("placement", {scope: sorted(devices) for scope, devices in placement.items()})
        result("weights", sess.run(tf.trainable_variables()[0]).ravel().tolist())
        result("variables", sorted(v.op.name for v in tf.global_variables()))


if __name__ == "__main__":
    tf.app.run()
