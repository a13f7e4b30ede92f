"""TF2 MultiWorkerMirroredStrategy across two namespaced Slurm nodes
(tests/slurm/netns_cluster.py), against the same job under local `launch`:

- a custom training loop started by plain `srun`, built on `modern.slurm_cluster_resolver()`
  (TF_CONFIG's resolver under launch); each replica trains on its own rows (seeded by its
  rank), the gradients summed across the replicas every step;
- Keras `fit` (examples/distributed_tf2.py, seeded) through `launch --slurm`.

Both runs of each must end with the same weights and losses.
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from budgets import budget
from isolated import REPO_ROOT
from launch_helpers import run_to_end, start, write_script
from slurm_helpers import launch_env, salloc_launch, wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster]

SCRIPT = """
    import json, os
    import numpy as np
    import tensorflow as tf
    import modern

    if "SLURM_PROCID" in os.environ:
        resolver = modern.slurm_cluster_resolver()
    else:
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)
    rank = resolver.task_id
    rng = np.random.RandomState(rank)
    x = rng.normal(size=(32, 3)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.25
    with strategy.scope():
        w = tf.Variable(tf.zeros([3, 1]))
        b = tf.Variable(0.0)
        optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        def replica_step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y)) / 2.0
            grads = tape.gradient(loss, [w, b])
            optimizer.apply_gradients(zip(grads, [w, b]))
            return loss
        return strategy.reduce("SUM", strategy.run(replica_step), axis=None)

    losses = [float(step()) for _ in range(8)]
    print("result", json.dumps({"rank": rank, "hosts": resolver.cluster_spec().as_dict(),
                                "weights": w.numpy().ravel().tolist(), "bias": float(b.numpy()),
                                "losses": losses}), flush=True)
"""


def _results(lines) -> dict:
    found = {}
    for line in lines:
        _, marker, document = line.partition("result ")
        if marker and document.startswith("{"):
            result = json.loads(document)
            found[result["rank"]] = result
    return found


def test_a_custom_loop_across_two_nodes_on_the_slurm_resolver_gives_the_local_runs_weights(
        netns_slurm, tmp_path):
    script = write_script(tmp_path, "loop.py", SCRIPT)
    status, lines = run_to_end(start("--workers", "2", "--grace", "3", str(script)), 180)
    assert status == 0, "\n".join(lines[-40:])
    local = _results(lines)
    env = launch_env(netns_slurm, {"CUDA_VISIBLE_DEVICES": ""})
    done = subprocess.run(["srun", "--nodes=2", "--ntasks=2", "--job-name=loop", sys.executable,
                           "-u", str(script)], capture_output=True, text=True, env=env,
                          cwd=str(REPO_ROOT), timeout=budget(180))
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    across = _results(done.stdout.splitlines())
    assert sorted(local) == sorted(across) == [0, 1], done.stdout
    workers = across[0]["hosts"]["worker"]
    nodes = [address.split(":")[0] for address in workers]
    assert len(set(nodes)) == 2 and set(nodes) <= set(netns_slurm.nodes), workers
    for rank in (0, 1):
        np.testing.assert_allclose(across[rank]["weights"], local[rank]["weights"], rtol=1e-6,
                                   atol=1e-7)
        np.testing.assert_allclose(across[rank]["losses"], local[rank]["losses"], rtol=1e-6,
                                   atol=1e-7)
    assert across[0]["weights"] == across[1]["weights"]  # one model, kept in step
    assert across[0]["losses"][-1] < across[0]["losses"][0]
    assert wait_until_empty(netns_slurm.queue, 10) == []


def _fit_results(folder) -> dict:
    return {name: json.loads((folder / f"{name}.json").read_text())
            for name in ("worker-0", "worker-1")}


def test_keras_fit_across_two_nodes_gives_the_local_runs_losses_and_weights(netns_slurm,
                                                                            tmp_path):
    job = ["--grace", "3", "-m", "examples.distributed_tf2", "mwms", "--epochs", "2"]
    status, lines = run_to_end(start("--workers", "2", *job, "--result-dir",
                                     str(tmp_path / "local"), "--backup-dir",
                                     str(tmp_path / "local-backup")), 240)
    assert status == 0, "\n".join(lines[-40:])
    env = launch_env(netns_slurm)
    status, lines = run_to_end(salloc_launch(
        netns_slurm, 2, "--slurm", "--workers", "2", *job, "--result-dir",
        str(tmp_path / "nodes"), "--backup-dir", str(tmp_path / "nodes-backup"), env=env,
        nodes=2), 240)
    assert status == 0, "\n".join(lines[-40:])
    local, across = _fit_results(tmp_path / "local"), _fit_results(tmp_path / "nodes")
    for side in (local, across):  # one model, kept in step on both workers
        assert side["worker-0"]["weights_digests"] == side["worker-1"]["weights_digests"]
    for worker in ("worker-0", "worker-1"):
        expected, got = local[worker], across[worker]
        np.testing.assert_allclose([epoch["loss"] for epoch in got["epochs"]],
                                   [epoch["loss"] for epoch in expected["epochs"]],
                                   rtol=1e-5, atol=1e-6)
        assert abs(got["final_accuracy"] - expected["final_accuracy"]) <= 1 / 360  # one digit
    assert wait_until_empty(netns_slurm.queue, 10) == []
