"""modern.distribute.strategy: each name on logical CPUs, and what each one says is missing."""

import pytest

from isolated import run_json

SCENARIO = """
import json, os, time
from modern import devices, distribute
from tf1compat import DeviceError, OptionError

devices.split_cpu(2)
import tensorflow as tf

facts = {}
mirrored = distribute.strategy("mirrored", ["/cpu:0", "/cpu:1"])
facts["mirrored"] = [mirrored.num_replicas_in_sync, distribute.replica_devices(mirrored)]
with mirrored.scope():
    variable = tf.Variable(1.0)
facts["mirrored_variable"] = type(variable).__name__
central = distribute.strategy("central_storage", ["/cpu:0", "/cpu:1"])
with central.scope():
    kept = tf.Variable(2.0)
facts["central"] = [central.num_replicas_in_sync, kept.device.split("device:")[-1]]
one = distribute.strategy("one_device", ["/cpu:1"])
facts["one_device"] = distribute.replica_devices(one)
facts["default"] = type(distribute.strategy("default")).__name__

def error_of(call):
    try:
        call()
    except Exception as error:
        return [type(error).__name__, str(error)]
    return None

facts["unknown"] = error_of(lambda: distribute.strategy("mirorred"))
facts["missing_device"] = error_of(lambda: distribute.strategy("mirrored", ["/cpu:0", "/cpu:5"]))
facts["mwms_no_cluster"] = error_of(lambda: distribute.strategy("multi_worker_mirrored"))
os.environ["TF_CONFIG"] = "{not json"
facts["bad_tf_config"] = error_of(lambda: distribute.strategy("multi_worker_mirrored"))
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["127.0.0.1:1"]},
                                      "task": {"type": "worker", "index": 0}})
facts["ps_without_ps"] = error_of(lambda: distribute.strategy("parameter_server"))
del os.environ["TF_CONFIG"]
facts["coordinator_wrong"] = error_of(lambda: distribute.coordinator(mirrored))
facts["tpu"] = error_of(lambda: distribute.strategy("tpu"))
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def facts():
    return run_json(SCENARIO)


def test_in_machine_strategies_on_logical_cpus(facts):
    assert facts["mirrored"] == [2, ["CPU:0", "CPU:1"]]
    assert facts["mirrored_variable"] == "MirroredVariable"
    assert facts["central"] == [2, "CPU:0"]
    assert facts["one_device"] == ["CPU:1"]
    assert facts["default"].endswith("DefaultDistributionStrategy")


def test_unknown_name_suggests(facts):
    kind, message = facts["unknown"]
    assert kind == "OptionError" and "'mirorred'" in message and "'mirrored'" in message


def test_missing_device_lists_existing(facts):
    kind, message = facts["missing_device"]
    assert kind == "DeviceError" and "/cpu:5" in message and "['CPU:0', 'CPU:1']" in message


def test_multi_worker_without_cluster_says_so(facts):
    kind, message = facts["mwms_no_cluster"]
    assert kind == "ClusterError" and "TF_CONFIG is not set" in message
    assert "tf1compat launch" in message


def test_bad_tf_config_is_named(facts):
    kind, message = facts["bad_tf_config"]
    assert kind == "ClusterError" and "TF_CONFIG" in message and "not valid JSON" in message


def test_parameter_server_needs_ps_job(facts):
    kind, message = facts["ps_without_ps"]
    assert kind == "ClusterError" and "ps job" in message and "'worker'" in message


def test_coordinator_only_for_parameter_server(facts):
    kind, message = facts["coordinator_wrong"]
    assert kind == "StrategyError" and "MirroredStrategy" in message


def test_no_tpu_is_a_clear_error(facts):
    kind, message = facts["tpu"]
    assert kind == "StrategyError" and "found no TPU" in message and "CPU:0" in message
