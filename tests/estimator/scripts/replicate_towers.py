"""A TF1 Estimator whose model_fn runs on two devices: replicate_model_fn + TowerOptimizer.

Runs unchanged under TensorFlow 1.15 and under `tf1compat run` on TF 2.21
(with `--device-map 'gpu:*=cpu:*'` the towers asked for /gpu:0 and /gpu:1 run
on logical CPUs 0 and 1; `--devices /cpu:0,/cpu:1 --cpus 2` asks for two CPUs
directly). Writes as JSON the loss of every step, the eval metrics, the
predictions, the checkpoint's variables and the devices each tower's ops ran
on (from a traced step). Initial values come from numpy, so both TensorFlows
start from the same weights.
"""
import argparse
import json

import numpy as np
import tensorflow as tf

FEATURES = 4
TOWER_LAYERS = ("hidden/", "logits/")  # tower 0 has no name scope; tower i is under tower_i/


def data(rows, seed):
    rng = np.random.RandomState(seed)
    x = rng.randn(rows, FEATURES).astype(np.float32)
    y = (x.dot(np.array([1.5, -2.0, 0.5, 1.0])) + 0.3 > 0).astype(np.int32)
    return x, y


def initial(shape, seed):
    return tf.constant_initializer(np.random.RandomState(seed).uniform(-0.5, 0.5, shape))


def model_fn(features, labels, mode, params):
    net = tf.layers.dense(features["x"], params["hidden"], activation=tf.nn.relu,
                          kernel_initializer=initial([FEATURES, params["hidden"]], 1),
                          name="hidden")
    logits = tf.layers.dense(net, 2, kernel_initializer=initial([params["hidden"], 2], 2),
                             name="logits")
    classes = tf.argmax(logits, axis=1)
    probabilities = tf.nn.softmax(logits)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(
            mode, predictions={"class": classes, "probabilities": probabilities})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels, classes)})
    optimizer = tf.train.AdamOptimizer(params["learning_rate"])
    if params["tower_optimizer"]:
        optimizer = tf.contrib.estimator.TowerOptimizer(optimizer)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def recorded(replicated):
    """The replicated model_fn, its combined training loss kept for LossRecorder."""
    def model_fn_with_loss(features, labels, mode, params, config):
        spec = replicated(features, labels, mode, params, config)
        if mode == tf.estimator.ModeKeys.TRAIN:
            tf.add_to_collection("combined_loss", spec.loss)
        return spec
    return model_fn_with_loss


class LossRecorder(tf.train.SessionRunHook):
    """Records the combined loss of every step, and where each tower's ops ran in step 1."""

    def __init__(self):
        self.losses = []
        self.placement = {}

    def begin(self):
        self.loss = tf.get_collection("combined_loss")[0]

    def before_run(self, run_context):
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE) if not self.losses else None
        return tf.train.SessionRunArgs(self.loss, options=options)

    def after_run(self, run_context, run_values):
        if not self.losses:
            towers = {"tower_0": set(), "tower_1": set()}
            for device in run_values.run_metadata.step_stats.dev_stats:
                if "device:" not in device.device:
                    continue  # the host's own record (/host:CPU) repeats what CPU:0 ran
                short = device.device.split("device:")[-1]
                for node in device.node_stats:
                    if node.node_name.startswith(TOWER_LAYERS):
                        towers["tower_0"].add(short)
                    elif node.node_name.startswith(tuple("tower_1/" + p for p in TOWER_LAYERS)):
                        towers["tower_1"].add(short)
            self.placement = {tower: sorted(devices) for tower, devices in towers.items()}
        self.losses.append(float(run_values.results))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--devices", default="/gpu:0,/gpu:1")
    parser.add_argument("--cpus", type=int, default=1)
    parser.add_argument("--no_soft_placement", action="store_true")
    parser.add_argument("--plain_optimizer", action="store_true")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    x, y = data(256, 0)
    config = tf.estimator.RunConfig(
        tf_random_seed=7, save_checkpoints_steps=10, keep_checkpoint_max=2,
        session_config=tf.ConfigProto(allow_soft_placement=not args.no_soft_placement,
                                      device_count={"CPU": args.cpus},
                                      intra_op_parallelism_threads=2,
                                      inter_op_parallelism_threads=2))
    replicated = tf.contrib.estimator.replicate_model_fn(model_fn,
                                                         devices=args.devices.split(","))
    estimator = tf.estimator.Estimator(
        recorded(replicated), model_dir=args.model_dir, config=config,
        params={"hidden": 8, "learning_rate": 0.05,
                "tower_optimizer": not args.plain_optimizer})
    recorder = LossRecorder()
    estimator.train(tf.estimator.inputs.numpy_input_fn(
        {"x": x}, y, batch_size=32, num_epochs=None, shuffle=False),
        hooks=[recorder], steps=args.steps)
    metrics = estimator.evaluate(tf.estimator.inputs.numpy_input_fn(
        {"x": x}, y, batch_size=64, shuffle=False), name="train_data")
    x_test, _ = data(8, 1)
    predictions = list(estimator.predict(tf.estimator.inputs.numpy_input_fn(
        {"x": x_test}, batch_size=8, shuffle=False), predict_keys=["probabilities"]))
    result = {
        "losses": recorder.losses,
        "placement": recorder.placement,
        "metrics": {key: float(value) for key, value in metrics.items()},
        "probabilities": [p["probabilities"].tolist() for p in predictions],
        "variables": sorted([name, shape] for name, shape in
                            tf.train.list_variables(args.model_dir)),
        "global_step": int(estimator.get_variable_value("global_step")),
        "checkpoint": estimator.latest_checkpoint().rsplit("/", 1)[-1],
        "hidden_kernel": estimator.get_variable_value("hidden/kernel").tolist(),
    }
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("trained to step", result["global_step"], "on", recorder.placement)


if __name__ == "__main__":
    main()
