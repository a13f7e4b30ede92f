"""A tf.estimator.Estimator with a small model_fn (two dense layers, Adam) trained from a
numpy input_fn; a SessionRunHook times the steps after the warm-up.

    python estimator_model_fn.py [TIMED_STEPS]   (default 1000; 20 warm-up steps first)

Prints one line: `vs_tf1 timed steps=N seconds=S` for the timed steps only.
"""
import shutil
import sys
import tempfile
import time

import numpy as np
import tensorflow as tf

TIMED = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
WARMUP = 20

rng = np.random.RandomState(0)
features = rng.rand(4096, 64).astype(np.float32)
labels = rng.randint(0, 10, size=4096).astype(np.int32)


def model_fn(features, labels, mode):
    w1 = tf.get_variable("w1", [64, 256], initializer=tf.glorot_uniform_initializer(seed=1))
    w2 = tf.get_variable("w2", [256, 10], initializer=tf.glorot_uniform_initializer(seed=2))
    logits = tf.matmul(tf.nn.relu(tf.matmul(features["x"], w1)), w2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))
    train = tf.train.AdamOptimizer(1e-3).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)


class StepTimer(tf.train.SessionRunHook):
    """Times the steps after the first WARMUP (graph building and session start excluded)."""

    def __init__(self):
        self.steps, self.start, self.seconds = 0, None, None

    def after_run(self, run_context, run_values):
        self.steps += 1
        if self.steps == WARMUP:
            self.start = time.perf_counter()
        elif self.steps == WARMUP + TIMED:
            self.seconds = time.perf_counter() - self.start


def input_fn():
    return tf.estimator.inputs.numpy_input_fn({"x": features}, labels, batch_size=64,
                                              num_epochs=None, shuffle=True)()


model_dir = tempfile.mkdtemp(prefix="vs-tf1-estimator-")
try:
    config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=None,
                                    save_checkpoints_secs=None, save_summary_steps=None,
                                    log_step_count_steps=None, tf_random_seed=1)
    timer = StepTimer()
    estimator = tf.estimator.Estimator(model_fn, config=config)
    estimator.train(input_fn, steps=WARMUP + TIMED, hooks=[timer])
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
print("vs_tf1 timed steps=%d seconds=%.6f" % (TIMED, timer.seconds))
