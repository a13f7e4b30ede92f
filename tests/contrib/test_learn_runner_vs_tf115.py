"""`tf.contrib.learn`'s Experiment, RunConfig and learn_runner, as Google's 2017-18 estimator
tutorials used them (TF 1.15's own modules, run on TF 2.21): an experiment function given a
RunConfig and HParams, trained and evaluated by `learn_runner.run`, gives TF 1.15's losses,
under `run` and after `migrate`."""

from tf1compat.census.served import migrate_serves, run_serves

from .three_ways import assert_close, three_ways

LEARN_RUNNER = r"""
import json
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner

features = np.linspace(-1.0, 1.0, 64).astype(np.float32).reshape(64, 1)
labels = (3.0 * features - 0.5).astype(np.float32)


def input_fn():
    data = tf.data.Dataset.from_tensor_slices(({"x": features}, labels))
    return data.batch(16).repeat().make_one_shot_iterator().get_next()


def model_fn(features, labels, mode, params):
    weight = tf.get_variable("weight", [1, 1], initializer=tf.zeros_initializer())
    bias = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features["x"], weight) + bias
    loss = tf.losses.mean_squared_error(labels, predictions)
    optimizer = tf.train.GradientDescentOptimizer(params.learning_rate)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def experiment_fn(run_config, hparams):
    estimator = tf.estimator.Estimator(model_fn, params=hparams, config=run_config)
    return tf.contrib.learn.Experiment(estimator, train_input_fn=input_fn,
                                       eval_input_fn=input_fn, train_steps=hparams.steps,
                                       eval_steps=2)


config = tf.contrib.learn.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=1)
hparams = tf.contrib.training.HParams(learning_rate=0.1, steps=30)
metrics, _ = learn_runner.run(experiment_fn, run_config=config,
                              schedule="train_and_evaluate", hparams=hparams)
print("RESULT " + json.dumps({"loss": float(metrics["loss"]),
                              "global_step": int(metrics["global_step"]),
                              "config": type(config).__name__}))
"""


def test_learn_runner_trains_and_evaluates_an_experiment_as_tf115(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, LEARN_RUNNER)
    assert expected[0]["global_step"] == 30 and expected[0]["config"] == "RunConfig"
    for way, results in (("run", under_run), ("migrate", migrated)):
        assert_close(expected, results, 1e-5, way)


def test_run_and_migrate_serve_every_spelling_the_tutorials_used():
    for spelling in ("attr:tensorflow:contrib.learn.RunConfig",
                     "attr:tensorflow:contrib.learn.Experiment",
                     "from:tensorflow.contrib.learn.python.learn:learn_runner",
                     "attr:tensorflow.contrib.learn.python.learn.learn_runner:run"):
        assert run_serves(spelling) and migrate_serves(spelling), spelling
