"""slim's training and evaluation stack on TFRecords (served by the tf_slim library) against
TensorFlow 1.15's contrib.slim: the same data and initial weights give the same loss, weights,
checkpoint and metrics, under `run` and after `migrate`."""

import importlib.util

import pytest

from .three_ways import assert_close, three_ways

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tf_slim") is None,
                                reason="tf_slim is not installed (pip install tf-slim)")

SLIM_TRAIN_EVAL = r"""
import json
import os
import tempfile
import numpy as np
import tensorflow as tf

slim = tf.contrib.slim
workdir = tempfile.mkdtemp()
path = os.path.join(workdir, "data.tfrecord")
rng = np.random.RandomState(0)
features = rng.randn(64, 4).astype(np.float32)
labels = (features.sum(axis=1) > 0).astype(np.int64)
with tf.python_io.TFRecordWriter(path) as writer:
    for f, l in zip(features, labels):
        example = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=f)),
            "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[l]))}))
        writer.write(example.SerializeToString())

decoder = slim.tfexample_decoder.TFExampleDecoder(
    {"x": tf.FixedLenFeature([4], tf.float32), "y": tf.FixedLenFeature([1], tf.int64)},
    {"x": slim.tfexample_decoder.Tensor("x"), "y": slim.tfexample_decoder.Tensor("y")})
dataset = slim.dataset.Dataset(data_sources=path, reader=tf.TFRecordReader, decoder=decoder,
                               num_samples=64, items_to_descriptions={"x": "features"})


def batches():
    provider = slim.dataset_data_provider.DatasetDataProvider(
        dataset, shuffle=False, num_readers=1, common_queue_capacity=64, common_queue_min=0)
    x, y = provider.get(["x", "y"])
    xs, ys = tf.train.batch([x, y], batch_size=8, num_threads=1)
    return xs, tf.reshape(ys, [-1])


def model(x):
    return slim.fully_connected(x, 2, activation_fn=None, scope="fc",
                                weights_initializer=tf.constant_initializer(0.1))


with tf.Graph().as_default():
    xs, ys = batches()
    loss = tf.losses.sparse_softmax_cross_entropy(ys, model(xs))
    train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.5))
    final_loss = slim.learning.train(train_op, os.path.join(workdir, "train"), number_of_steps=16,
                                     save_summaries_secs=100000, save_interval_secs=100000,
                                     log_every_n_steps=100000)

with tf.Graph().as_default():
    xs, ys = batches()
    predictions = tf.argmax(model(xs), 1)
    names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(predictions, ys),
        "mean_x": slim.metrics.streaming_mean(tf.reduce_mean(xs))})
    checkpoint = tf.train.latest_checkpoint(os.path.join(workdir, "train"))
    values = slim.evaluation.evaluate_once(
        "", checkpoint, os.path.join(workdir, "eval"), num_evals=8,
        eval_op=list(names_to_updates.values()), final_op=names_to_values)

print("RESULT " + json.dumps({
    "final_loss": float(final_loss), "step": int(tf.train.load_variable(checkpoint, "global_step")),
    "accuracy": float(values["accuracy"]), "mean_x": float(values["mean_x"]),
    "weights": tf.train.load_variable(checkpoint, "fc/weights").tolist(),
    "variables": sorted(name for name, _ in tf.train.list_variables(checkpoint)),
    "checkpoint": os.path.basename(checkpoint)}, sort_keys=True))
"""


def test_slim_training_and_evaluation_on_tfrecords_match_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SLIM_TRAIN_EVAL)
    assert expected[0]["checkpoint"] == "model.ckpt-16" and expected[0]["accuracy"] > 0.9
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")


OPTIMIZE_LOSS = r"""
import json
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(2)
x = tf.constant(rng.randn(16, 3).astype(np.float32))
y = tf.constant(rng.randn(16, 1).astype(np.float32))
w = tf.get_variable("w", initializer=tf.constant(rng.randn(3, 1).astype(np.float32)))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
step = tf.train.get_or_create_global_step()
train_op = tf.contrib.layers.optimize_loss(loss, step, learning_rate=0.1, optimizer="SGD",
                                           clip_gradients=0.5, summaries=["loss"])
losses = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(5):
        losses.append(float(sess.run(train_op)))
    print("RESULT " + json.dumps({"losses": losses, "w": sess.run(w).tolist(),
                                  "step": int(sess.run(step)),
                                  "summaries": len(tf.get_collection(tf.GraphKeys.SUMMARIES))}))
"""


def test_optimize_loss_matches_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, OPTIMIZE_LOSS)
    assert expected[0]["step"] == 5
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")


def test_the_compatibility_layer_leaves_tensorflow_itself_unchanged():
    from tensorflow.python.framework import ops

    from tf1compat.contrib.tf_slim_compat import load

    had = {name: hasattr(ops, name) for name in ("Tensor", "IndexedSlices")}
    import sys

    tf_slim = load()
    optimizers = sys.modules["tf_slim.layers.optimizers"]

    assert {name: hasattr(ops, name) for name in had} == had
    assert optimizers.ops.Tensor.__name__ == "Tensor" and tf_slim.learning is not None
