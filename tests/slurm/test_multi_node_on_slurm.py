"""Jobs across three Slurm nodes, each node a network namespace with its own address
(tests/slurm/netns_cluster.py): every task's server listens on its own node's address, the
numbers are the local `launch` run's, and nothing is left behind."""

import ast
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from estimator.clusters import SCRIPT, results
from launch_scripts import TURNS, TUTORIAL, tf115_turns, turns_results
from launch_helpers import (finish, kill_group, kill_tasks, start, task_pids,
                            write_script)
from slurm_helpers import RUN_MARK, launch_env, losing_a_node, marked_processes, nodes_of, \
    salloc_launch, wait_until_empty


pytestmark = [pytest.mark.slurm, pytest.mark.cluster]

LAYOUT = ("--ps", "1", "--workers", "2", "--tf1-flags", "--grace", "5")


def _ended_clean(cluster, env) -> None:
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(cluster.queue, 10) == []


def _finished(process, lines):
    try:
        status = finish(process, 180, lines)
        assert status == 0, "\n".join(lines[-60:])
        return turns_results(lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_tf1_between_graph_across_three_nodes_gives_the_local_runs_numbers(netns_slurm,
                                                                          tmp_path):
    script = str(write_script(tmp_path, "turns.py", TURNS))
    local_lines, slurm_lines = [], []
    local = _finished(start(*LAYOUT, "-m", "tf1compat.cli.main", "run", "--no-report", script),
                      local_lines)
    env = launch_env(netns_slurm)
    across = _finished(salloc_launch(netns_slurm, 3, "--slurm", *LAYOUT,
                                     "--run-args=--no-report", script, env=env, nodes=3),
                       slurm_lines)
    assert sorted(across) == ["worker:0", "worker:1"], "\n".join(slurm_lines[-40:])
    tf115 = tf115_turns(tmp_path, script)  # and TF 1.15's run of the same cluster
    for worker in ("worker:0", "worker:1"):
        np.testing.assert_allclose(across[worker]["weights"], tf115[worker]["weights"],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(across[worker]["weights"], local[worker]["weights"],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose([across[worker]["bias"], across[worker]["loss"]],
                                   [local[worker]["bias"], local[worker]["loss"]],
                                   rtol=1e-5, atol=1e-6)
    # one task per node, each started at its node's name
    started = nodes_of(slurm_lines)
    assert sorted(started.values()) == ["n1", "n2", "n3"], started
    # each server listens on its own node's address, and on no other
    listens = {m.group(1): ast.literal_eval(m.group(2)) for m in (
        re.match(r"^\[(\w+:\d)\] script \d+ listens on (.*)$", line) for line in slurm_lines)
        if m}
    assert len(listens) == 3, slurm_lines[-40:]
    for task, addresses in listens.items():
        own = netns_slurm.address(started[task])
        assert addresses and set(addresses) <= {own, f"::ffff:{own}"}, (task, addresses)
    _ended_clean(netns_slurm, env)


def test_keras_multi_worker_across_two_nodes_ends_with_identical_weights(netns_slurm,
                                                                          tmp_path):
    script = write_script(tmp_path, "tutorial.py", TUTORIAL)
    out = tmp_path / "weights"
    out.mkdir()
    env = launch_env(netns_slurm)
    process, lines = salloc_launch(netns_slurm, 2, "--slurm", "--workers", "2", "--grace", "5",
                                   str(script), str(out), env=env, nodes=2), []
    try:
        assert finish(process, 300, lines) == 0, "\n".join(lines[-60:])
    finally:
        kill_group(process)
        kill_tasks(lines)
    assert sorted(nodes_of(lines).values()) == ["n1", "n2"], lines[-40:]
    first, second = np.load(out / "worker-0.npz"), np.load(out / "worker-1.npz")
    for name in first.files:
        np.testing.assert_array_equal(first[name], second[name])
    losses = {m.group(1): json.loads(m.group(2)) for m in
              (re.match(r"^\[(worker:\d)\] losses (\[.*\])$", line) for line in lines) if m}
    assert losses["worker:0"] == losses["worker:1"] and losses["worker:0"][1] < \
        losses["worker:0"][0]
    _ended_clean(netns_slurm, env)


def test_train_and_evaluate_across_three_nodes_with_its_model_dir_on_hdfs(
        netns_slurm, netns_minidfs, tmp_path):
    """The chief checkpoints to hdfs:// (the MiniDFS every node reaches), and the evaluator,
    on another node, evaluates those checkpoints as they come."""
    model_dir = f"{netns_minidfs.url}/train-and-evaluate/{tmp_path.name}"
    env = launch_env(netns_slurm)
    process, lines = salloc_launch(
        netns_slurm, 4, "--slurm", "--chief", "--ps", "1", "--workers", "1", "--evaluator",
        "--wait-for", "chief,worker,evaluator", "--grace", "5",
        "-m", "tf1compat.cli.main", "run", "--no-report", str(SCRIPT),
        "--model_dir", model_dir, "--out_dir", str(tmp_path),
        "--max_steps", "40", "--trainers", "2", env=env, nodes=3), []
    try:
        assert finish(process, 300, lines) == 0, "\n".join(lines[-60:])
        assert sorted(task_pids(lines)) == ["chief:0", "evaluator:0", "ps:0", "worker:0"]
    finally:
        kill_group(process)
        kill_tasks(lines)
    nodes = nodes_of(lines)
    assert set(nodes.values()) == {"n1", "n2", "n3"}, nodes
    found = results(tmp_path, ("chief-0", "worker-0", "evaluator-0"))
    chief, evaluator = found["chief-0"], found["evaluator-0"]
    assert 40 <= chief["global_step"] <= found["chief-0"]["steps"] + found["worker-0"]["steps"]
    # the evaluator, on another node than the chief, read the chief's checkpoints on hdfs://
    assert nodes["evaluator:0"] != nodes["chief:0"]
    assert chief["checkpoint"] == f"model.ckpt-{chief['global_step']}"
    # (its evaluation events, on hdfs:// beside the checkpoints, and its predictions from the
    # final checkpoint; the events are read here once the job is over: a file still being
    # written reads as its closed blocks only on hdfs://, docs/hdfs.md)
    from hdfs_native import Client

    events = [status for status in Client(netns_minidfs.url).list_status(
        model_dir.split(netns_minidfs.url, 1)[1] + "/eval_held_out")
        if "events.out.tfevents" in status.path]
    assert events and all(status.length > 0 for status in events), events
    assert len(evaluator["probabilities"]) == 12
    _ended_clean(netns_slurm, env)


def test_a_lost_node_is_left_out_and_training_resumes_from_the_hdfs_backup(
        netns_slurm, netns_minidfs, tmp_path):
    """A node of a running MultiWorkerMirrored job killed (slurmd, its tasks, its link): with
    --max-restarts under a --no-kill allocation, the step starts again on the nodes left and
    resumes from the last BackupAndRestore epoch, kept on hdfs://, losing and repeating none."""
    env = launch_env(netns_slurm)
    log = tmp_path / "epochs.jsonl"
    backup = f"{netns_minidfs.url}/lost-node-backup/{tmp_path.name}"
    lines, lost = losing_a_node(
        netns_slurm, 3, ["--slurm", "--workers", "2", "--max-restarts", "1", "--grace", "3", "-m",
                         "examples.distributed_tf2", "mwms", "--epochs", "4", "--pause", "2",
                         "--result-dir", str(tmp_path / "results"), "--backup-dir", backup,
                         "--epoch-log", str(log)], env, after=r"\[worker:0\] epoch 1 done")
    text = "\n".join(lines)
    assert f"leaving out the lost node(s) {lost}" in text
    second = dict(re.findall(r"started (\w+:\d) pid \d+ at (n\d):\d+ \(rank \d on node \S+, "
                             r"step \d+\.1\)", text))
    assert sorted(second) == ["worker:0", "worker:1"] and lost not in second.values(), second
    logged = [(e["attempt"], e["epoch"]) for e in map(json.loads, log.read_text().splitlines())]
    last = max(epoch for attempt, epoch in logged if attempt == 1)
    assert logged == [(1, e) for e in range(last + 1)] + [(2, e) for e in range(last + 1, 4)]
    _ended_clean(netns_slurm, env)


def test_a_port_taken_on_one_node_only_is_named_with_that_node(netns_slurm, tmp_path):
    """The tasks' ports held by another process on n2 only (in its namespace): the task placed
    on n2 cannot start and is named with its node; n1 and n3 had the same ports free."""
    script = write_script(tmp_path, "sleep.py", "import time\ntime.sleep(300)\n")
    base = 31000 + os.getpid() % 2000
    hold = ("import socket, time\nheld = []\nfor port in range({0}, {0} + 3):\n"
            "    s = socket.socket(); s.bind(('0.0.0.0', port)); s.listen(); held.append(s)\n"
            "print('held', flush=True)\ntime.sleep(300)\n").format(base)
    holder = subprocess.Popen(netns_slurm.in_node("n2", sys.executable, "-c", hold),
                              stdout=subprocess.PIPE, text=True)
    env = launch_env(netns_slurm)
    lines = []
    try:
        assert holder.stdout.readline().strip() == "held"
        process = salloc_launch(netns_slurm, 3, "--slurm", "--ps", "1", "--workers", "2",
                                "--grace", "2", "--port-base", str(base), str(script), env=env,
                                nodes=3)
        try:
            status = finish(process, 60, lines)
        finally:
            kill_group(process)
            kill_tasks(lines)
    finally:
        holder.kill()
        holder.wait()
    errors = [line for line in lines if line.startswith("tf1compat: error")]
    assert status == 1 and len(errors) == 1, "\n".join(lines)
    match = re.fullmatch(r"tf1compat: error: task (\w+:\d) \(rank (\d) on node n2\) cannot start: "
                         r"port (\d+) on node n2 \(\1, rank \2\) is already in use \(another job "
                         r"on this node\?\); pass --port-base with a free range \(exit status 1\)",
                         errors[0])
    # one task per node, and each node numbers its tasks' ports from --port-base: all three
    # wanted the same port, free on n1 and n3
    assert match and int(match.group(3)) == base, errors[0]
    _ended_clean(netns_slurm, env)
