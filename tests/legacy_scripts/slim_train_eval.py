"""TF1: slim's training and evaluation stack on TFRecords. Examples written with
tf.python_io, read back through slim.dataset / tfexample_decoder / DatasetDataProvider and
tf.train.batch, trained by slim.learning.train (a Supervisor and its checkpoints), then
evaluated from the latest checkpoint by slim.evaluation.evaluate_once with slim.metrics."""
import os
import sys

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim
workdir = sys.argv[1]
tf.logging.set_verbosity(tf.logging.ERROR)
path = os.path.join(workdir, "train.tfrecord")
rng = np.random.RandomState(0)
features = rng.randn(64, 4).astype(np.float32)
labels = (features[:, 0] + 0.5 * features[:, 1] > 0).astype(np.int64)
with tf.python_io.TFRecordWriter(path) as writer:
    for row, label in zip(features, labels):
        example = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=row)),
            "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[label]))}))
        writer.write(example.SerializeToString())

decoder = slim.tfexample_decoder.TFExampleDecoder(
    {"x": tf.FixedLenFeature([4], tf.float32), "y": tf.FixedLenFeature([1], tf.int64)},
    {"x": slim.tfexample_decoder.Tensor("x"), "y": slim.tfexample_decoder.Tensor("y")})
dataset = slim.dataset.Dataset(data_sources=path, reader=tf.TFRecordReader, decoder=decoder,
                               num_samples=64, items_to_descriptions={"x": "four features"})


def batches():
    # one reader, no shuffling, one batching thread: the same rows in the same order each run
    provider = slim.dataset_data_provider.DatasetDataProvider(
        dataset, shuffle=False, num_readers=1, common_queue_capacity=64, common_queue_min=0)
    x, y = provider.get(["x", "y"])
    xs, ys = tf.train.batch([x, y], batch_size=8, num_threads=1)
    return xs, tf.reshape(ys, [-1])


def model(x):
    with slim.arg_scope([slim.fully_connected],
                        weights_initializer=tf.truncated_normal_initializer(stddev=0.3, seed=3),
                        weights_regularizer=slim.l2_regularizer(1e-3)):
        net = slim.fully_connected(x, 6, scope="hidden")
        return slim.fully_connected(net, 2, activation_fn=None, scope="logits")


with tf.Graph().as_default():
    xs, ys = batches()
    slim.losses.sparse_softmax_cross_entropy(model(xs), ys)
    total_loss = slim.losses.get_total_loss()
    train_op = slim.learning.create_train_op(total_loss, tf.train.GradientDescentOptimizer(0.3))
    final_loss = slim.learning.train(train_op, os.path.join(workdir, "train"), number_of_steps=24,
                                     save_summaries_secs=100000, save_interval_secs=100000,
                                     log_every_n_steps=100000)
print("final training loss %.5f" % final_loss)

checkpoint = tf.train.latest_checkpoint(os.path.join(workdir, "train"))
print("checkpoint %s at step %d" % (os.path.basename(checkpoint),
                                    tf.train.load_variable(checkpoint, "global_step")))
print("variables: %s" % sorted(name for name, _ in tf.train.list_variables(checkpoint)))
print("logits/weights[0] %s" % np.round(tf.train.load_variable(checkpoint, "logits/weights")[0], 4))

with tf.Graph().as_default():
    xs, ys = batches()
    predictions = tf.argmax(model(xs), 1)
    names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(predictions, ys),
        "recall": slim.metrics.streaming_recall(predictions, ys),
        "mean_feature": slim.metrics.streaming_mean(tf.reduce_mean(xs))})
    values = slim.evaluation.evaluate_once(
        "", checkpoint, os.path.join(workdir, "eval"), num_evals=8,
        eval_op=list(names_to_updates.values()), final_op=names_to_values)
for name in sorted(values):
    print("eval %s %.5f" % (name, values[name]))
