"""Jobs across three namespaced Slurm nodes (tests/slurm/netns_cluster.py) on shared storage: a
MiniDFS bound to the bridge address that every node reaches (the `netns_minidfs` fixture).

The TF1 job is tests/slurm/hdfs_turns.py: 1 ps and 2 workers reading their rows from hdfs://
every turn, the chief checkpointing to hdfs://. Its weights depend only on the turns taken, so
a run across the nodes, one that lost a DataNode half-way, and one that lost a node and resumed
from the last checkpoint must all end with the weights of the local `launch` run.
"""

import re
from pathlib import Path

import numpy as np
import pytest

from launch_helpers import finish, kill_group, kill_tasks, read_until, run_to_end, start
from launch_scripts import turns_results
from slurm_helpers import RUN_MARK, launch_env, losing_a_node, marked_processes, nodes_of, \
    salloc_launch, wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster, pytest.mark.hdfs]

SCRIPT = Path(__file__).with_name("hdfs_turns.py")
LAYOUT = ("--ps", "1", "--workers", "2", "--tf1-flags", "--grace", "5")
STEPS, SAVE_STEPS = 24, 4
TURN = re.compile(r"^\[worker:\d\] turn (\d+) attempt (\d+)$")


def _client(dfs):
    from hdfs_native import Client

    return Client(dfs.url)


@pytest.fixture(scope="module")
def rows_url(netns_minidfs):
    """60,000 rows (2.8 MB: three 1 MiB blocks, each on both DataNodes) of y = x.w + b + noise."""
    rng = np.random.RandomState(0)
    x = rng.normal(size=(60000, 3))
    y = x @ np.array([1.0, -2.0, 0.5]) + 0.25 + 0.01 * rng.normal(size=60000)
    text = "".join("%.6f,%.6f,%.6f,%.6f\n" % (*row, target) for row, target in zip(x, y))
    with _client(netns_minidfs).create("/across-nodes/rows.csv") as handle:
        handle.write(text.encode())
    return netns_minidfs.url + "/across-nodes/rows.csv"


def _job_args(dfs, rows_url, checkpoints: str, *extra: str) -> list[str]:
    return ["--run-args=--no-report", str(SCRIPT), "--data", rows_url, "--checkpoint_dir",
            f"{dfs.url}/across-nodes/{checkpoints}", "--steps", str(STEPS), "--save_steps",
            str(SAVE_STEPS), *extra]


@pytest.fixture(scope="module")
def local_weights(netns_minidfs, rows_url):
    """The same job through the local `launch`, on the host, reading the same hdfs://."""
    status, lines = run_to_end(start(*LAYOUT, *_job_args(netns_minidfs, rows_url, "local")), 240)
    assert status == 0, "\n".join(lines[-60:])
    found = turns_results(lines)
    assert found["worker:0"] == found["worker:1"] and found["worker:0"]["global_step"] == STEPS
    return found["worker:0"]


def _latest_checkpoint(dfs, checkpoints: str) -> str:
    with _client(dfs).read(f"/across-nodes/{checkpoints}/checkpoint") as handle:
        return re.search(r'^model_checkpoint_path: "(.*)"$', handle.read().decode(),
                         re.M).group(1)


def _ended_clean(cluster, env) -> None:
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(cluster.queue, 10) == []


def test_tf1_training_reads_and_checkpoints_hdfs_on_three_nodes_through_a_lost_datanode(
        netns_slurm, netns_minidfs, rows_url, local_weights):
    env = launch_env(netns_slurm)
    process = salloc_launch(netns_slurm, 3, "--slurm", *LAYOUT,
                            *_job_args(netns_minidfs, rows_url, "nodes", "--pause", "0.5"),
                            env=env, nodes=3)
    lines, stopped = [], False
    try:
        # turn 5 reads while the NameNode still offers the stopped DataNode's replicas; then
        # it is declared dead, before the checkpoint at step 8 writes (two paused turns away)
        read_until(process, r"^\[worker:\d\] turn 4 attempt 1$", 240, lines)
        netns_minidfs.command("stop-datanode 0")
        stopped = True
        read_until(process, r"^\[worker:\d\] turn 5 attempt 1$", 60, lines)
        netns_minidfs.command("declare-dead 0")
        assert finish(process, 240, lines) == 0, "\n".join(lines[-60:])
    finally:
        kill_group(process)
        kill_tasks(lines)
        if stopped:
            netns_minidfs.command("restart-datanode 0")
    nodes = nodes_of(lines)
    assert sorted(nodes.values()) == ["n1", "n2", "n3"], nodes
    found = turns_results(lines)
    for worker in ("worker:0", "worker:1"):
        assert found[worker]["global_step"] == STEPS
        np.testing.assert_allclose(found[worker]["weights"], local_weights["weights"],
                                   rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(found[worker]["bias"], local_weights["bias"],
                                   rtol=1e-6, atol=1e-7)
    assert _latest_checkpoint(netns_minidfs, "nodes") == f"model.ckpt-{STEPS}"
    _ended_clean(netns_slurm, env)


def test_a_lost_node_restarts_tf1_training_from_the_last_hdfs_checkpoint(
        netns_slurm, netns_minidfs, rows_url, local_weights):
    """worker:1's node killed mid-run (slurmd, its tasks, its link): with --max-restarts under
    a --no-kill allocation the step starts again on the nodes left, the chief restores the last
    checkpoint from hdfs://, and the turns since it are trained again; no other turn is lost or
    repeated, and the weights are the uninterrupted run's."""
    env = launch_env(netns_slurm)
    # 4 slots on 3 nodes (2, 1, 1): the 3 tasks still fit once worker:1's node is gone
    lines, lost = losing_a_node(
        netns_slurm, 4, ["--slurm", *LAYOUT, "--max-restarts", "1",
                         *_job_args(netns_minidfs, rows_url, "lost-node", "--pause", "0.3")],
        env, after=r"^\[worker:1\] turn 11 attempt 1$")
    text = "\n".join(lines)
    assert f"leaving out the lost node(s) {lost}" in text
    turns = [(int(attempt), int(turn)) for turn, attempt in
             (m.groups() for m in map(TURN.match, lines) if m)]
    first = [turn for attempt, turn in turns if attempt == 1]
    second = [turn for attempt, turn in turns if attempt == 2]
    assert first == list(range(len(first))) and first[-1] >= 11, turns
    # attempt 2 starts at the last checkpoint attempt 1 wrote, one interval at most back
    assert second == list(range(second[0], STEPS)), turns
    assert second[0] % SAVE_STEPS == 0 and 0 <= first[-1] + 1 - second[0] <= SAVE_STEPS, turns
    restored = f"{netns_minidfs.url}/across-nodes/lost-node/model.ckpt-{second[0]}"
    assert f"Restoring parameters from {restored}" in text, text[-3000:]
    found = turns_results(lines)
    np.testing.assert_allclose(found["worker:0"]["weights"], local_weights["weights"],
                               rtol=1e-6, atol=1e-7)
    assert _latest_checkpoint(netns_minidfs, "lost-node") == f"model.ckpt-{STEPS}"
    _ended_clean(netns_slurm, env)


def test_an_unreachable_namenode_is_named_in_the_one_error_line_and_nothing_is_left(
        netns_slurm, netns_minidfs, tmp_path):
    closed = f"hdfs://{netns_slurm.controller_address}:9/across-nodes/rows.csv"
    env = launch_env(netns_slurm)
    status, lines = run_to_end(salloc_launch(
        netns_slurm, 3, "--slurm", *LAYOUT, "--run-args=--no-report", str(SCRIPT), "--data",
        closed, "--checkpoint_dir", str(tmp_path / "checkpoints"), env=env, nodes=3), 120)
    errors = [line for line in lines if line.startswith("tf1compat: error")]
    assert status == 1 and len(errors) == 1, "\n".join(lines[-40:])
    assert re.fullmatch(
        r"tf1compat: error: task worker:[01] \(rank [12] on node n[23]\) failed: exit code 1, "
        r"after UnavailableError: cannot connect to the HDFS NameNode at "
        + re.escape(f"{netns_slurm.controller_address}:9 (for {closed}): ")
        + r".*check that the NameNode is running and that the host and port in the URL are "
        r"right \(exit status 1\)", errors[0]), errors[0]
    _ended_clean(netns_slurm, env)
