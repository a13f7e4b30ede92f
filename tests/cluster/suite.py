"""Clusters: the behaviour both sides must have, asserted once.

`ClusterSuite` needs a `side` fixture: an object with that side's own API for
the three things a TF1 script and its TF2 form both do with a cluster:
`from_environment(text)` (TF_CONFIG as `tf1compat launch` sets it),
`start_task(cluster, task_type, task_index)` (what checks a task before
TensorFlow sees it), and `train_async(epochs, workers, ps)` (asynchronous
training through `tf1compat launch`, reduced to the same facts). Subclass it per
side (test_tf1_cluster_suite.py, test_modern_cluster_suite.py), as
tests/input_pipeline/suite.py and tests/towers/suite.py do.
"""

from __future__ import annotations

import json

import pytest

from tf1compat.shared.errors import ClusterError

TF_CONFIG = json.dumps({
    "cluster": {"chief": ["127.0.0.1:2220"], "ps": ["127.0.0.1:2221"],
                "worker": ["127.0.0.1:2222", "127.0.0.1:2223"]},
    "task": {"type": "worker", "index": 1}})


class ClusterSuite:
    """Shared assertions; `side` is the side under test."""

    def test_tf_config_gives_the_task_and_every_address(self, side):
        cluster = side.from_environment(TF_CONFIG)
        assert (cluster.task_type, cluster.task_index) == ("worker", 1)
        assert cluster.address() == "127.0.0.1:2223"
        assert cluster.addresses("worker") == ("127.0.0.1:2222", "127.0.0.1:2223")
        assert cluster.addresses("ps") == ("127.0.0.1:2221",)
        assert cluster.addresses("chief") == ("127.0.0.1:2220",)

    @pytest.mark.parametrize("text, expected", [
        ('{"cluster": {"worker": ["127.0.0.1:2222"]}', "TF_CONFIG is not valid JSON"),
        ('{"task": {"type": "worker", "index": 0}}', '"cluster"'),
        ('{"cluster": {"worker": ["127.0.0.1:2222"]}, "task": {"type": "worker", "index": 2}}',
         "worker:2"),
    ])
    def test_bad_tf_config_names_what_is_wrong(self, side, text, expected):
        with pytest.raises(ClusterError, match=expected.replace("(", r"\(")):
            side.from_environment(text)

    def test_a_task_outside_the_cluster_is_refused_before_tensorflow_sees_it(self, side):
        with pytest.raises(ClusterError, match="task index out of range: received worker:3"):
            side.start_task({"worker": ["127.0.0.1:2222"]}, "worker", 3)
        with pytest.raises(ClusterError, match="evaluator"):
            side.start_task({"worker": ["127.0.0.1:2222"]}, "evaluator", 0)

    @pytest.mark.cluster
    def test_asynchronous_training_counts_every_workers_steps(self, side):
        facts = side.train_async(epochs=3, workers=2, ps=1)
        assert len(facts["worker_steps"]) == 2 and all(n > 0 for n in facts["worker_steps"])
        assert facts["global_step"] == sum(facts["worker_steps"])
        assert facts["final_accuracy"] > 0.85
        assert facts["last_loss"] < facts["first_loss"]
