"""The shared cluster suite on the TF2 side: modern.cluster (resolvers, ParameterServerStrategy)."""

import pytest

from examples import distributed
from modern import cluster

from .suite import ClusterSuite


class ModernSide:
    from_environment = staticmethod(cluster.from_environment)

    @staticmethod
    def start_task(jobs, task_type, task_index):
        return cluster.cluster_resolver(jobs, task_type, task_index)

    @staticmethod
    def train_async(epochs, workers, ps):
        result = distributed.tf2_parameter_server_form(epochs=epochs, workers=workers, ps=ps,
                                                       timeout=300)
        # the coordinator scheduled exactly the steps the workers ran
        assert result["global_step"] == result["steps_scheduled"]
        return {"worker_steps": result["worker_steps"], "global_step": result["global_step"],
                "final_accuracy": result["final_accuracy"],
                "first_loss": result["epochs"][0]["loss"],
                "last_loss": result["epochs"][-1]["loss"]}


@pytest.fixture
def side():
    return ModernSide


class TestModernCluster(ClusterSuite):
    pass
