"""`modern.slurm_cluster_resolver()` on CPU-only nodes, where TF's own resolver fails.

Two tasks of one real `srun` step: TF's SlurmClusterResolver with 0 GPUs per task raises
(tensorflow/tensorflow#56894); ours resolves both tasks, and MultiWorkerMirroredStrategy
built on it sums a value across them.
"""

import json
import subprocess
import sys

import pytest

from budgets import budget
from isolated import REPO_ROOT
from launch_helpers import write_script
from slurm_helpers import launch_env, wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster]

SCRIPT = """
    import json, os
    import tensorflow as tf
    import modern

    try:
        tf.distribute.cluster_resolver.SlurmClusterResolver(
            gpus_per_node=0, gpus_per_task=0).cluster_spec()
        tf_own = "resolved"
    except ValueError as error:
        tf_own = str(error)
    resolver = modern.slurm_cluster_resolver()
    spec = resolver.cluster_spec().as_dict()
    strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)
    rank = int(os.environ["SLURM_PROCID"])
    total = strategy.reduce("SUM", strategy.run(lambda: tf.constant(rank + 1.0)), axis=None)
    print(json.dumps({"rank": rank, "tf_own": tf_own, "spec": spec,
                      "task": list(resolver.get_task_info()),
                      "gpus": resolver.num_accelerators(), "total": float(total),
                      "visible": os.environ.get("CUDA_VISIBLE_DEVICES")}), flush=True)
"""


def test_cpu_only_tasks_resolve_and_train_together(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "resolve.py", SCRIPT)
    # A CPU-only node, as TensorFlow and both resolvers see it, on any test machine.
    env = launch_env(slurm_cluster, {"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""})
    result = subprocess.run(["srun", "--ntasks=2", "--job-name=resolver", sys.executable, "-u",
                             str(script)], capture_output=True, text=True, env=env,
                            cwd=str(REPO_ROOT), timeout=budget(90))
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    documents = sorted((json.loads(line) for line in result.stdout.splitlines()
                        if line.startswith("{")), key=lambda document: document["rank"])
    assert [document["rank"] for document in documents] == [0, 1], result.stdout
    assert all(d["tf_own"] == "range() arg 3 must not be zero" for d in documents)
    workers = documents[0]["spec"]["worker"]
    node = slurm_cluster.node
    assert len(workers) == 2 and all(a.startswith(f"{node}:") for a in workers)
    assert int(workers[1].rsplit(":")[1]) == int(workers[0].rsplit(":")[1]) + 1
    assert all(d["spec"] == documents[0]["spec"] for d in documents)
    assert [d["task"] for d in documents] == [["worker", 0], ["worker", 1]]
    assert all(d["gpus"] == {"GPU": 0} and d["visible"] == "" for d in documents)
    assert [d["total"] for d in documents] == [3.0, 3.0]
    assert wait_until_empty(slurm_cluster.queue, 10) == []
