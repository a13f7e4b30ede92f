"""contrib.cluster_resolver's TPUClusterResolver and a TPUEstimator off a TPU, against TF 1.15.

TF 1.15 takes a TPU name that is not a Cloud TPU ('', 'local', 'grpc://...',
'localhost:PORT', '/bns/...') as the session master and looks nothing up; the
tensorflow/tpu models build their resolver with '' when `use_tpu` is False and
hand it to `tf.contrib.tpu.RunConfig`. The same script under TF 1.15, under
`tf1compat run` and after `migrate`: every resolver answer, and the
TPUEstimator's losses, evaluation, predictions and weights.
"""

import pytest

from .three_ways import assert_close, three_ways

SCRIPT = r'''
import json
import os
import tempfile

import numpy as np
import tensorflow as tf


def describe(make):
    try:
        resolver = make()
        spec = resolver.cluster_spec()
        return {"master": resolver.master(), "get_master": resolver.get_master(),
                "grpc_master": resolver.master(rpc_layer="grpc"),
                "cluster_spec": None if spec is None else spec.as_dict(),
                "job": resolver.get_job_name(), "environment": resolver.environment,
                "rpc_layer": getattr(resolver, "rpc_layer", "absent"),
                "task": [resolver.task_type, resolver.task_id]}
    except Exception as error:  # noqa: BLE001 - the error TF 1.15 raises is the result
        return {"error": type(error).__name__, "message": str(error)}


def result(name, value):
    print("RESULT " + json.dumps({name: value}, sort_keys=True))


TPU = tf.contrib.cluster_resolver.TPUClusterResolver
os.environ.pop("TPU_NAME", None)
os.environ.pop("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS", None)
for label, tpu in [("None", None), ("empty", ""), ("local", "local"),
                   ("grpc", "grpc://10.1.2.3:8470"), ("localhost list", ["localhost:8470"]),
                   ("bns", "/bns/tpu/worker:1234"), ("no list", []), ("two", ["a", "b"])]:
    result(label, describe(lambda: TPU(tpu, zone=None, project=None)))
os.environ["TPU_NAME"] = ""
result("TPU_NAME empty", describe(lambda: TPU()))
os.environ["TPU_NAME"] = "grpc://10.9.8.7:8470"
result("TPU_NAME grpc", describe(lambda: TPU(job_name="tpu_worker", coordinator_name="coordinator",
                                            coordinator_address="10.0.0.2:8470")))
del os.environ["TPU_NAME"]
result("cores", TPU("").num_accelerators())
try:
    TPU("local").num_accelerators()
except Exception as error:
    result("local cores", type(error).__name__)
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["h1:1", "h2:2"], "ps": ["p:3"]},
                                      "task": {"type": "worker", "index": 1}})
config_resolver = tf.contrib.cluster_resolver.TFConfigClusterResolver()
result("tf_config", {"master": config_resolver.master(), "ps": config_resolver.master("ps", 0),
                     "spec": config_resolver.cluster_spec().as_dict(),
                     "task": [config_resolver.task_type, config_resolver.task_id]})
del os.environ["TF_CONFIG"]

# The tensorflow/tpu models' way off a TPU: the resolver is built with '' and handed to RunConfig.
USE_TPU = False
FEATURES = 3
rng = np.random.RandomState(0)
x = rng.randn(64, FEATURES).astype(np.float32)
y = (x.dot(np.array([[0.5], [-1.0], [2.0]])) + 0.25).astype(np.float32)


def input_fn(params):
    data = tf.data.Dataset.from_tensor_slices((x, y)).repeat()
    return data.batch(params["batch_size"], drop_remainder=True)


def predict_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(x[:8]).batch(params["batch_size"])


def model_fn(features, labels, mode, params):
    weights = tf.get_variable("weights", [FEATURES, 1],
                              initializer=tf.constant_initializer([[0.1], [0.2], [0.3]]))
    bias = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features, weights) + bias
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"y": predictions})
    loss = tf.reduce_mean(tf.square(predictions - labels))
    tf.add_to_collection("step_loss", loss)
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    if USE_TPU:
        optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)


class Losses(tf.train.SessionRunHook):
    def __init__(self):
        self.values = []

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(tf.get_collection("step_loss")[0])

    def after_run(self, run_context, run_values):
        self.values.append(float(run_values.results))


resolver = TPU("grpc://10.0.0.1:8470" if USE_TPU else "", zone=None, project=None)
run_config = tf.contrib.tpu.RunConfig(
    cluster=resolver, model_dir=tempfile.mkdtemp(), save_checkpoints_steps=100,
    tf_random_seed=1,
    tpu_config=tf.contrib.tpu.TPUConfig(
        iterations_per_loop=5, num_shards=8,
        per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
result("run_config", {"master": run_config.master, "evaluation_master": run_config.evaluation_master,
                      "cluster": bool(run_config.cluster_spec)})
estimator = tf.contrib.tpu.TPUEstimator(
    use_tpu=USE_TPU, model_fn=model_fn, config=run_config, train_batch_size=8,
    eval_batch_size=8, predict_batch_size=8)
losses = Losses()
estimator.train(input_fn, max_steps=12, hooks=[losses])
result("losses", losses.values)
result("eval", {key: float(value) for key, value in
                estimator.evaluate(input_fn, steps=2).items()})
result("predictions", [p["y"].tolist() for p in estimator.predict(predict_input_fn)])
result("weights", estimator.get_variable_value("weights").tolist())
'''


def test_tpu_resolvers_off_a_tpu_and_a_tpu_estimator_behave_as_in_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    answers = {name: value for entry in expected for name, value in entry.items()}
    assert answers["empty"]["master"] == "" and answers["empty"]["cluster_spec"] is None
    assert answers["None"]["error"] == "ValueError" and answers["cores"] == {"TPU": 0}
    assert answers["losses"][-1] < answers["losses"][0] / 10  # it trained
    assert_close(expected, under_run, 1e-4, "run")
    assert_close(expected, migrated, 1e-4, "migrate")


def test_an_empty_tpu_name_on_google_compute_engine_is_refused_as_tf_1_15_refused_it(
        monkeypatch):
    from tf1compat.contrib import cluster_resolver

    monkeypatch.setattr(cluster_resolver, "is_running_in_gce", lambda: True)
    with pytest.raises(RuntimeError, match="You need to specify a TPU Name"):
        cluster_resolver.TPUClusterResolver("")
    assert cluster_resolver.TPUClusterResolver("local").master() == "local"  # a name: accepted


def test_the_contrib_table_replaces_the_tpu_resolver_and_maps_the_tf_config_one():
    from tf1compat.contrib import registry

    tpu = registry.lookup("cluster_resolver.TPUClusterResolver")
    assert (tpu.served.value, tpu.target) == (
        "replaced", "tf1compat.contrib.cluster_resolver.TPUClusterResolver")
    assert registry.lookup("cluster_resolver.TFConfigClusterResolver").target == \
        "tf.distribute.cluster_resolver.TFConfigClusterResolver"
