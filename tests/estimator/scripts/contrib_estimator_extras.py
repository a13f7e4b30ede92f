"""tf.contrib.estimator's helpers on one Estimator: clip_gradients_by_norm, add_metrics,
forward_features, and the early-stopping hook (tf.estimator.experimental's in TF 1.15,
whose tf.contrib.estimator no longer had it).

Runs unchanged under TensorFlow 1.15 and under `tf1compat run` on TF 2.21 and
writes what each helper did as JSON.
"""
import argparse
import json

import numpy as np
import tensorflow as tf

ROWS = 16
W0 = np.random.RandomState(3).uniform(-0.5, 0.5, [4, 1]).astype(np.float32)


def model_fn(features, labels, mode):
    w = tf.get_variable("w", initializer=tf.constant(W0))
    score = tf.squeeze(tf.matmul(features["x"], w), 1)
    predictions = {"score": score}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput(predictions)})
    loss = tf.losses.mean_squared_error(labels, score)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, predictions=predictions)
    optimizer = tf.contrib.estimator.clip_gradients_by_norm(
        tf.train.GradientDescentOptimizer(1.0), clip_norm=0.01)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def metric_fn(labels, predictions):
    return {"mean_score": tf.metrics.mean(predictions["score"]),
            "mean_label": tf.metrics.mean(labels)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    rng = np.random.RandomState(0)
    x = rng.randn(ROWS, 4).astype(np.float32)
    y = (x.dot([1.0, -1.0, 2.0, 0.5]) * 10).astype(np.float32)  # big errors: clipping bites
    ids = np.arange(100, 100 + ROWS, dtype=np.int64)
    estimator = tf.estimator.Estimator(model_fn, model_dir=args.model_dir,
                                       config=tf.estimator.RunConfig(tf_random_seed=1))
    train = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=ROWS, num_epochs=None,
                                               shuffle=False)
    # The hook adds a variable (signal_early_stopping/STOP): in the first training, as a
    # checkpoint without it cannot be resumed by a graph with it (TF 1.15 alike).
    hook = tf.estimator.experimental.stop_if_no_decrease_hook(estimator, "loss", 1000)
    estimator.train(train, hooks=[hook], steps=1)
    step = (estimator.get_variable_value("w") - W0).ravel()

    with_metrics = tf.contrib.estimator.add_metrics(estimator, metric_fn)
    metrics = with_metrics.evaluate(tf.estimator.inputs.numpy_input_fn(
        {"x": x}, y, batch_size=ROWS, shuffle=False))

    forwarded = tf.contrib.estimator.forward_features(estimator, "id")
    predictions = list(forwarded.predict(tf.estimator.inputs.numpy_input_fn(
        {"x": x, "id": ids}, batch_size=ROWS, shuffle=False)))

    result = {
        "step_norm": float(np.linalg.norm(step)),
        "step": step.tolist(),
        "metrics": {key: float(value) for key, value in sorted(metrics.items())},
        "prediction_keys": sorted(predictions[0]),
        "forwarded_ids": [int(p["id"]) for p in predictions],
        "scores": [float(p["score"]) for p in predictions],
        "hook_is_a_session_run_hook": isinstance(hook, tf.train.SessionRunHook),
        "global_step": int(estimator.get_variable_value("global_step")),
        "variables": sorted(name for name, _ in tf.train.list_variables(args.model_dir)),
    }
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("step norm", result["step_norm"])


if __name__ == "__main__":
    main()
