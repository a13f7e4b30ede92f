"""The shared cluster suite on the TF1 side: tf1compat.cluster (servers, between-graph)."""

import pytest

from examples import distributed
from tf1compat import cluster

from .suite import ClusterSuite


class Tf1Side:
    from_environment = staticmethod(cluster.from_environment)

    @staticmethod
    def start_task(jobs, task_type, task_index):
        return cluster.server(jobs, task_type, task_index)

    @staticmethod
    def train_async(epochs, workers, ps):
        result = distributed.tf1_form(epochs=epochs, workers=workers, ps=ps, timeout=300)
        tasks = result["tasks"]
        assert sorted(tasks) == [f"worker:{i}" for i in range(workers)]
        return {"worker_steps": [tasks[name]["local_steps"] for name in sorted(tasks)],
                "global_step": result["global_step"],
                "final_accuracy": result["final_accuracy"],
                "first_loss": result["epochs"][0]["loss"],
                "last_loss": result["epochs"][-1]["loss"]}


@pytest.fixture
def side():
    return Tf1Side


class TestTf1Cluster(ClusterSuite):
    pass
