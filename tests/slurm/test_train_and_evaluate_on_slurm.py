"""`tf.estimator.train_and_evaluate` from TF_CONFIG (chief + ps + worker + evaluator) under
`launch --slurm` inside salloc, each task `tf1compat run` of the Estimator cluster script of
tests/estimator (scripts/train_and_evaluate.py).

Training is asynchronous: which task takes which step differs from run to run. What must
hold: the chief's last checkpoint counts the steps of every trainer (chief and worker), the
evaluator evaluated a checkpoint at max_steps or beyond, every task and its script ended, no
process of the run is left on the node, and squeue is empty.
"""

import re

import pytest

from estimator.clusters import SCRIPT, SCRIPT_PID, results
from launch_helpers import finish, kill_group, kill_tasks, task_pids, wait_gone
from slurm_helpers import RUN_MARK, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster]

MAX_STEPS = 40
TRAINERS = ("chief-0", "worker-0")


def test_train_and_evaluate_on_slurm_reaches_the_sum_of_the_trainers_steps(slurm_cluster,
                                                                            tmp_path):
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(
        slurm_cluster, 4, "--slurm", "--chief", "--ps", "1", "--workers", "1", "--evaluator",
        "--wait-for", "chief,worker,evaluator", "--grace", "5",
        "-m", "tf1compat.cli.main", "run", "--no-report", str(SCRIPT),
        "--model_dir", str(tmp_path / "model"), "--out_dir", str(tmp_path),
        "--max_steps", str(MAX_STEPS), "--trainers", str(len(TRAINERS)), env=env), []
    try:
        status = finish(process, 300, lines)
        assert status == 0, "\n".join(lines[-60:])
        tasks = task_pids(lines)
        assert sorted(tasks) == ["chief:0", "evaluator:0", "ps:0", "worker:0"]
        scripts = [int(m.group(1)) for m in map(SCRIPT_PID.search, lines) if m]
        assert len(scripts) == 4, "\n".join(lines[-60:])  # the ps's script too
        assert wait_gone(list(tasks.values()) + scripts, 10) == [], "a task outlived the run"
    finally:
        kill_group(process)
        kill_tasks(lines)
    found = results(tmp_path, (*TRAINERS, "evaluator-0"))
    chief, evaluator = found["chief-0"], found["evaluator-0"]
    steps = {task: found[task]["steps"] for task in TRAINERS}
    assert min(steps.values()) >= 1, steps  # both trained
    # The global step counts every trainer's steps: the chief's alone fall short of it.
    assert MAX_STEPS <= chief["global_step"] <= sum(steps.values()), (chief, steps)
    assert steps["chief-0"] < chief["global_step"]
    assert chief["checkpoint"] == f"model.ckpt-{chief['global_step']}"
    assert MAX_STEPS <= evaluator["eval_events"]["step"] <= chief["global_step"]
    assert re.search(r"chief:0 \(rank 0 on node \S+\) finished", "\n".join(lines))
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(slurm_cluster.queue, 10) == []
