"""A TF1 between-graph script (1 ps + 2 workers, flag-style) under `launch --slurm` inside
salloc, through `tf1compat run` in each task: the same numbers as the local `launch` run and
as TensorFlow 1.15 running the same cluster (a process per task, as TF1 users started it).

The workers train one linear model whose variables live on the ps, taking turns (a turn
counter on the ps), so the result does not depend on which worker is faster and both runs
must give the same weights and loss.
"""

import ast
import re

import numpy as np
import pytest

from launch_scripts import TURNS, tf115_turns, turns_results
from launch_helpers import finish, kill_group, kill_tasks, start, task_pids, wait_gone, \
    write_script
from slurm_helpers import RUN_MARK, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster]

LAYOUT = ("--ps", "1", "--workers", "2", "--tf1-flags", "--grace", "5")


def _script_pids(lines):
    return [int(m.group(1)) for m in (re.search(r"\] script (\d+) listens", line)
                                      for line in lines) if m]


def _run(process, lines):
    try:
        status = finish(process, 150, lines)
        assert status == 0, "\n".join(lines[-60:])
        pids = list(task_pids(lines).values()) + _script_pids(lines)
        assert len(task_pids(lines)) == 3
        assert wait_gone(pids, 10) == [], "a task outlived the run"
        return turns_results(lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_between_graph_training_on_slurm_gives_the_local_runs_numbers(slurm_cluster, tmp_path):
    script = str(write_script(tmp_path, "turns.py", TURNS))
    program = ("-m", "tf1compat.cli.main", "run", "--no-report", script)
    local_lines, slurm_lines = [], []
    local = _run(start(*LAYOUT, *program), local_lines)
    env = launch_env(slurm_cluster)
    # the README's form: the TF1 script itself, which --tf1-flags serves as `tf1compat run`
    on_slurm = _run(salloc_launch(slurm_cluster, 3, "--slurm", *LAYOUT, "--run-args=--no-report",
                                  script, env=env), slurm_lines)
    assert sorted(local) == sorted(on_slurm) == ["worker:0", "worker:1"], \
        "\n".join(slurm_lines[-40:])
    for side in (local, on_slurm):  # both workers read the same variables at the end
        assert side["worker:0"]["weights"] == side["worker:1"]["weights"]
        assert side["worker:0"]["bias"] == side["worker:1"]["bias"]
    for worker in ("worker:0", "worker:1"):  # each its loss on its own data
        expected, got = local[worker], on_slurm[worker]
        np.testing.assert_allclose(got["weights"], expected["weights"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose([got["bias"], got["loss"]],
                                   [expected["bias"], expected["loss"]], rtol=1e-5, atol=1e-6)
        assert got["loss"] < 2.0  # it trained (the loss at zero weights is above 5)
    tf115 = tf115_turns(tmp_path, script)
    assert sorted(tf115) == ["worker:0", "worker:1"]
    for worker in ("worker:0", "worker:1"):  # TF 1.15's float32 steps, to its last digits
        np.testing.assert_allclose(local[worker]["weights"], tf115[worker]["weights"],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose([local[worker]["bias"], local[worker]["loss"]],
                                   [tf115[worker]["bias"], tf115[worker]["loss"]],
                                   rtol=1e-5, atol=1e-6)
    # Servers listen on the node's address only (`vm` is 127.0.0.1 here), not 0.0.0.0.
    # (TensorFlow binds IPv6; the shim gives it the IPv4-mapped loopback address.)
    listens = [ast.literal_eval(line.split(" listens on ", 1)[1]) for line in slurm_lines
               if " listens on " in line]
    assert len(listens) == 3 and all(
        addresses and set(addresses) <= {"127.0.0.1", "::ffff:127.0.0.1"}
        for addresses in listens), listens
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(slurm_cluster.queue, 10) == []
