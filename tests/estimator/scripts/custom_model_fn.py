"""A TF1 Estimator with a model_fn of its own: hooks, eval metrics, predictions, export.

Runs unchanged under TensorFlow 1.15 and under `tf1compat run` on TF 2.21, and
writes what it saw as JSON: the loss of every step (from a SessionRunHook),
the eval metrics, predictions and the checkpoint's variables. Initial values
come from numpy, so both TensorFlows start from the same weights.
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


def model_fn(features, labels, mode, params, config):
    net = tf.layers.dense(features["x"], params["hidden"], activation=tf.nn.relu,
                          kernel_initializer=initial([FEATURES, params["hidden"]], 1),
                          name="hidden")
    logits = tf.layers.dense(net, 2, kernel_initializer=initial([params["hidden"], 2], 2),
                             name="logits")
    classes = tf.argmax(logits, axis=1)
    probabilities = tf.nn.softmax(logits)
    predictions = {"class": classes, "probabilities": probabilities}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput(predictions)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    metrics = {"accuracy": tf.metrics.accuracy(labels, classes),
               "mean_p1": tf.metrics.mean(probabilities[:, 1])}
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)
    optimizer = tf.train.AdamOptimizer(params["learning_rate"])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    logging = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=10)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      training_hooks=[logging])


class LossRecorder(tf.train.SessionRunHook):
    """Records the loss of every training step."""

    def __init__(self):
        self.losses = []

    def begin(self):
        self.loss = tf.get_collection(tf.GraphKeys.LOSSES)[0]

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self.loss)

    def after_run(self, run_context, run_values):
        self.losses.append(float(run_values.results))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--out", required=True)
    parser.add_argument("--export_dir")
    args = parser.parse_args()

    x, y = data(256, 0)
    config = tf.estimator.RunConfig(
        tf_random_seed=7, save_checkpoints_steps=20, keep_checkpoint_max=3,
        session_config=tf.ConfigProto(allow_soft_placement=True,
                                      intra_op_parallelism_threads=2,
                                      inter_op_parallelism_threads=2))
    estimator = tf.estimator.Estimator(model_fn, model_dir=args.model_dir, config=config,
                                       params={"hidden": 8, "learning_rate": 0.05})
    train_input = tf.estimator.inputs.numpy_input_fn(
        {"x": x}, y, batch_size=32, num_epochs=None, shuffle=False)
    recorder = LossRecorder()
    estimator.train(train_input, hooks=[recorder], steps=args.steps)
    metrics = estimator.evaluate(tf.estimator.inputs.numpy_input_fn(
        {"x": x}, y, batch_size=64, shuffle=False), name="train_data")
    x_test, _ = data(8, 1)
    predictions = list(estimator.predict(tf.estimator.inputs.numpy_input_fn(
        {"x": x_test}, shuffle=False), predict_keys=["probabilities"]))
    result = {
        "losses": recorder.losses,
        "metrics": {key: float(value) for key, value in metrics.items()},
        "probabilities": [p["probabilities"].tolist() for p in predictions],
        "variables": sorted([name, shape] for name, shape in
                            tf.train.list_variables(args.model_dir)),
        "global_step": int(estimator.get_variable_value("global_step")),
        "checkpoint": estimator.latest_checkpoint().rsplit("/", 1)[-1],
        "hidden_kernel": estimator.get_variable_value("hidden/kernel").tolist(),
    }
    if args.export_dir:
        def serving_input_receiver_fn():
            x = tf.placeholder(tf.float32, [None, FEATURES], name="x")
            return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})
        exported = estimator.export_saved_model(args.export_dir, serving_input_receiver_fn)
        result["export"] = exported.decode() if isinstance(exported, bytes) else exported
        result["test_x"] = x_test.tolist()
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("trained to step", result["global_step"], "accuracy", result["metrics"]["accuracy"])


if __name__ == "__main__":
    main()
