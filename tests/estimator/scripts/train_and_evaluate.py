"""`tf.estimator.train_and_evaluate` with a canned DNNClassifier, locally or from TF_CONFIG.

Without TF_CONFIG it trains and evaluates in this process. With TF_CONFIG
(a chief, ps and workers, and an evaluator outside the cluster, as
`tf1compat launch --chief --ps 1 --workers 2 --evaluator` or a hand-written
TF_CONFIG per process sets it) every task runs this same script: ps tasks
serve, chief and workers train asynchronously on the ps, the evaluator
evaluates each new checkpoint until the last. Each task writes
`<out_dir>/<task>.json` (a local folder; --model_dir may be any filesystem TensorFlow
reads, hdfs:// included): its own train steps (counted by a hook), what
train_and_evaluate returned, and (chief, local) the checkpoint's variables
and global step. With --trainers N the first step of each training task
waits until N of them (chief and workers) have a session, so that every
worker takes part in the training.
Runs unchanged under TensorFlow 1.15 and `tf1compat run`.
"""
import argparse
import glob
import json
import os
import time

import numpy as np
import tensorflow as tf

FEATURES = 4
HIDDEN = [8]


def data(rows=96, seed=5):
    rng = np.random.RandomState(seed)
    x = rng.randn(rows, FEATURES).astype(np.float32)
    y = (x.dot(np.array([1.0, -1.5, 0.5, 2.0])) > 0.2).astype(np.int32)
    return {"x": x}, y


def input_fn(batch_size, repeat):
    features, labels = data()
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    if repeat:
        dataset = dataset.repeat()
    return dataset.batch(batch_size)


def write_initial_checkpoint(path):
    rng = np.random.RandomState(3)
    shapes = {"dnn/hiddenlayer_0/kernel": [FEATURES, HIDDEN[0]], "dnn/hiddenlayer_0/bias":
              [HIDDEN[0]], "dnn/logits/kernel": [HIDDEN[0], 1], "dnn/logits/bias": [1]}
    with tf.Graph().as_default():
        variables = [tf.Variable(rng.uniform(-0.5, 0.5, shape).astype(np.float32), name=name)
                     for name, shape in sorted(shapes.items())]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return tf.train.Saver(variables).save(sess, path)


class StepCounter(tf.train.SessionRunHook):
    """Counts this task's own train steps; announces its session and may wait for the others'."""

    def __init__(self, out_dir, task, trainers):
        self.out_dir, self.task, self.trainers = out_dir, task, trainers
        self.steps, self.last_global_step = 0, None

    def begin(self):
        self.global_step = tf.train.get_global_step()

    def after_create_session(self, session, coord):
        with open(os.path.join(self.out_dir, "session-%s" % self.task), "w") as marker:
            marker.write("ready")

    def before_run(self, run_context):
        if self.steps == 0:
            deadline = time.time() + 120
            while len(glob.glob(os.path.join(self.out_dir, "session-*"))) < self.trainers \
                    and time.time() < deadline:
                time.sleep(0.2)
        return tf.train.SessionRunArgs(self.global_step)

    def after_run(self, run_context, run_values):
        self.steps += 1
        self.last_global_step = int(run_values.results)


def plain(value):
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (np.generic, np.ndarray)):
        return value.tolist()
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def last_eval_summary(eval_dir):
    """The step and scalars of the last evaluation the eval dir's event files hold."""
    last = {}
    for path in sorted(tf.gfile.Glob(os.path.join(eval_dir, "events.out.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            values = {value.tag: value.simple_value for value in event.summary.value
                      if value.HasField("simple_value")}
            if values:
                last = {"step": int(event.step), "values": values}
    return last


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--out_dir", required=True)
    parser.add_argument("--max_steps", type=int, default=60)
    parser.add_argument("--trainers", type=int, default=0)
    args = parser.parse_args()
    print("task pid", os.getpid(), flush=True)  # the process to account for, whatever ran it

    config = tf.estimator.RunConfig(model_dir=args.model_dir, tf_random_seed=11,
                                    save_checkpoints_steps=20, save_summary_steps=10)
    task = "%s-%d" % (config.task_type, config.task_id)
    warm_start = tf.estimator.WarmStartSettings(
        write_initial_checkpoint(os.path.join(args.out_dir, "initial-%s.ckpt" % task)),
        vars_to_warm_start="dnn/.*")
    classifier = tf.estimator.DNNClassifier(
        hidden_units=HIDDEN, feature_columns=[tf.feature_column.numeric_column("x", [FEATURES])],
        optimizer=lambda: tf.train.AdagradOptimizer(0.1), config=config,
        warm_start_from=warm_start)
    counter = StepCounter(args.out_dir, task, args.trainers)
    train_spec = tf.estimator.TrainSpec(lambda: input_fn(16, True), max_steps=args.max_steps,
                                        hooks=[counter])
    eval_spec = tf.estimator.EvalSpec(lambda: input_fn(48, False), steps=None, name="held_out",
                                      start_delay_secs=0, throttle_secs=1)
    returned = tf.estimator.train_and_evaluate(classifier, train_spec, eval_spec)
    result = {"task": task, "steps": counter.steps, "last_global_step": counter.last_global_step,
              "returned": plain(returned)}
    if config.is_chief:
        result["variables"] = sorted([name, shape] for name, shape in
                                     tf.train.list_variables(args.model_dir))
        result["global_step"] = int(tf.train.load_variable(args.model_dir, "global_step"))
        result["checkpoint"] = os.path.basename(tf.train.latest_checkpoint(args.model_dir))
    if not config.cluster_spec or config.task_type == "evaluator":
        result["eval_events"] = last_eval_summary(classifier.eval_dir("held_out"))
        predictions = classifier.predict(lambda: input_fn(48, False))
        result["probabilities"] = [p["probabilities"].tolist() for p in predictions][:12]
    with open(os.path.join(args.out_dir, "%s.json" % task), "w") as out:
        json.dump(result, out)
    print(task, "done after", counter.steps, "own steps", flush=True)


if __name__ == "__main__":
    main()
