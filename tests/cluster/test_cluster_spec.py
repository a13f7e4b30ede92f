"""Cluster descriptions: ClusterSpec <-> TF_CONFIG both ways, and clear errors for bad ones."""

import json

import pytest
import tensorflow as tf

from modern import cluster as modern_cluster
from tf1compat.shared.cluster_spec import Cluster, local_cluster, parse_hostfile
from tf1compat.shared.errors import ClusterError

JOBS = {"ps": ["127.0.0.1:2222"], "worker": ["127.0.0.1:2223", "127.0.0.1:2224"]}


def test_cluster_spec_to_tf_config_and_back():
    spec = tf.train.ClusterSpec(JOBS)
    text = modern_cluster.tf_config(spec, "worker", 1)
    assert json.loads(text) == {"cluster": JOBS, "task": {"type": "worker", "index": 1}}
    back = modern_cluster.cluster_spec(text)
    assert isinstance(back, tf.train.ClusterSpec)
    assert back.as_dict() == spec.as_dict()
    assert Cluster.from_tf_config(text) == Cluster(spec, "worker", 1)


def test_tf_config_from_the_environment(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": JOBS, "task": {"type": "ps",
                                                                          "index": 0}}))
    found = modern_cluster.from_environment()
    assert found.task == "ps:0" and found.address() == "127.0.0.1:2222"
    assert not found.is_chief
    assert Cluster(JOBS, "worker", 0).is_chief
    assert not Cluster({"chief": ["h:1"], **JOBS}, "worker", 0).is_chief


def test_local_cluster_has_distinct_free_ports_in_task_order():
    found = local_cluster(2, ps=1, chief=True)
    assert found.job_names == ["chief", "ps", "worker"]
    addresses = [found.addresses(job)[i] for job, i in found.tasks()]
    assert len(set(addresses)) == 4 and all(a.startswith("127.0.0.1:") for a in addresses)


@pytest.mark.parametrize("build,expected", [
    (lambda: Cluster(JOBS, "worker", 2), "task index out of range: received worker:2; accepted: 0..1"),
    (lambda: Cluster(JOBS, "worker", -1), "task index out of range"),
    (lambda: Cluster(JOBS, "evaluator", 0), "job 'evaluator' is not in the cluster"),
    (lambda: Cluster({"worker": ["127.0.0.1:1", "127.0.0.1:1"]}), "duplicate address '127.0.0.1:1'"),
    (lambda: Cluster({"ps": ["a:1"], "worker": ["a:1"]}), "used by ps:0 and worker:0"),
    (lambda: Cluster({"worker": ["127.0.0.1"]}), "invalid address of worker:0: received '127.0.0.1'"),
    (lambda: Cluster({"worker": ["127.0.0.1:70000"]}), "port '70000'"),
    (lambda: Cluster({"worker": ["host:abc"]}), "port 'abc'"),
    (lambda: Cluster({"worker": [":2222"]}), "received ':2222'"),
    (lambda: Cluster({"chief": ["a:1", "a:2"]}), "exactly one chief"),
    (lambda: Cluster({}), "invalid cluster"),
    (lambda: Cluster.from_tf_config("{not json"), "TF_CONFIG is not valid JSON"),
    (lambda: Cluster.from_tf_config('{"task": {}}'), 'TF_CONFIG has no "cluster"'),
    (lambda: Cluster(JOBS).require("sync"), "a ps job has no place in synchronous training"),
    (lambda: Cluster({"worker": ["a:1"]}).require("async"), "missing chief/ps job"),
    (lambda: Cluster({"ps": ["a:1"]}).require("between_graph"), "missing worker job"),
    (lambda: Cluster({"chief": ["a:1"], "worker": ["a:2"]}).require("async"), "missing ps job"),
])
def test_bad_clusters_fail_with_a_message_that_echoes_the_input(build, expected):
    with pytest.raises(ClusterError) as caught:
        build()
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_unset_tf_config_says_how_to_set_it(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    with pytest.raises(ClusterError, match="TF_CONFIG is not set"):
        modern_cluster.from_environment()


def test_hostfile_lines_become_a_cluster():
    found = parse_hostfile(["# machines", "10.0.0.1:2222 ps", "", "10.0.0.2:2222 worker",
                            "10.0.0.3:2222 worker  # second"])
    assert found.as_dict() == {"ps": ["10.0.0.1:2222"],
                               "worker": ["10.0.0.2:2222", "10.0.0.3:2222"]}
    with pytest.raises(ClusterError, match="hostfile line 2"):
        parse_hostfile(["10.0.0.1:2222 ps", "10.0.0.2 worker"])
    with pytest.raises(ClusterError, match="line 1: received '10.0.0.1:2222'"):
        parse_hostfile(["10.0.0.1:2222"])


def test_ipv6_addresses_are_accepted():
    assert Cluster({"worker": ["[::1]:2222"]}).address("worker", 0) == "[::1]:2222"
