"""A TF1 Estimator trained with RunConfig(train_distribute=tf.distribute.MirroredStrategy([...])).

Runs unchanged under TensorFlow 1.15 and under `tf1compat run` on TF 2.21:
two replicas on two CPUs (`--cpus 2`, TF1's device_count) or, under
`tf1compat run --device-map 'gpu:*=cpu:*'`, the two GPUs asked for mapped to
logical CPUs. Writes as JSON the loss of every step, the eval metrics, the
checkpoint's variables and the final weights. Initial values come from numpy.
"""
import argparse
import json

import numpy as np
import tensorflow as tf

FEATURES = 4


def data(rows, seed):
    rng = np.random.RandomState(seed)
    x = rng.randn(rows, FEATURES).astype(np.float32)
    y = (x.dot(np.array([1.5, -2.0, 0.5, 1.0])) + 0.3 > 0).astype(np.int32)
    return x, y


def initial(shape, seed):
    return tf.constant_initializer(np.random.RandomState(seed).uniform(-0.5, 0.5, shape))


def model_fn(features, labels, mode):
    net = tf.layers.dense(features["x"], 8, activation=tf.nn.relu,
                          kernel_initializer=initial([FEATURES, 8], 1), name="hidden")
    logits = tf.layers.dense(net, 2, kernel_initializer=initial([8, 2], 2), name="logits")
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, axis=1))})
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn(rows, batch, repeat):
    def make():
        x, y = data(rows, 0)
        dataset = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
        return (dataset.repeat() if repeat else dataset).batch(batch, drop_remainder=True)
    return make


class LossRecorder(tf.train.SessionRunHook):
    def __init__(self):
        self.losses = []

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(tf.get_collection(tf.GraphKeys.LOSSES))

    def after_run(self, run_context, run_values):
        self.losses.append(sum(float(value) for value in run_values.results))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--devices", default="/cpu:0,/cpu:1")
    parser.add_argument("--cpus", type=int, default=0, help="device_count CPU; 0: not set")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy(args.devices.split(","))
    session_config = tf.ConfigProto(allow_soft_placement=True)
    if args.cpus:
        session_config.device_count["CPU"] = args.cpus
    config = tf.estimator.RunConfig(tf_random_seed=7, train_distribute=strategy,
                                    session_config=session_config)
    estimator = tf.estimator.Estimator(model_fn, model_dir=args.model_dir, config=config)
    recorder = LossRecorder()
    estimator.train(input_fn(256, 16, True), hooks=[recorder], steps=args.steps)
    metrics = estimator.evaluate(input_fn(256, 64, False))
    result = {
        "replicas": strategy.num_replicas_in_sync,
        "losses": recorder.losses,
        "metrics": {key: float(value) for key, value in metrics.items()},
        "variables": sorted([name, shape] for name, shape in
                            tf.train.list_variables(args.model_dir)),
        "global_step": int(estimator.get_variable_value("global_step")),
        "hidden_kernel": estimator.get_variable_value("hidden/kernel").tolist(),
    }
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("trained to step", result["global_step"], "with", result["replicas"], "replicas")


if __name__ == "__main__":
    main()
