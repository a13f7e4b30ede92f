"""`tf1compat launch --slurm` and `--emit slurm` on a real one-node Slurm (no TensorFlow).

Each task is a small Python script: what it is given (TF_CONFIG, TF1's flags, the host
its servers are confined to), how launch ends the run, and how a killed task is named.
"""

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from isolated import REPO_ROOT
from launch_helpers import finish, kill_group, kill_tasks, read_until, task_pids, \
    wait_gone, write_script
from slurm_helpers import RUN_MARK, children, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm]

# Every task prints what it was given and leaves a mark; ps tasks then serve forever (launch
# must stop them), workers end once every ps task has printed, the chief once every other
# task has (else the run could end before a slow task's line).
ECHO = """
    import json, os, sys, time
    task = os.environ["TF1COMPAT_TASK"]
    config = json.loads(os.environ["TF_CONFIG"])
    print(json.dumps({"task": task, "tf_config": config, "argv": sys.argv[1:],
                      "bind": os.environ.get("TF1COMPAT_BIND_HOST"),
                      "rank": os.environ["SLURM_PROCID"]}), flush=True)
    here = os.path.dirname(os.path.abspath(__file__))
    open(os.path.join(here, task.replace(":", "-") + ".printed"), "w").close()
    if task.startswith("ps:"):
        time.sleep(600)
    waits_for = ("ps", "worker") if task.startswith("chief:") else ("ps",)
    others = [f"{job}-{i}.printed" for job, addresses in config["cluster"].items()
              for i in range(len(addresses)) if job in waits_for]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(
            os.path.exists(os.path.join(here, name)) for name in others):
        time.sleep(0.05)
"""


def _documents(lines):
    found = {}
    for line in lines:
        prefix, _, payload = line.partition("] ")
        if prefix.startswith("[") and payload.startswith("{"):
            document = json.loads(payload)
            assert prefix == f"[{document['task']}"
            found[document["task"]] = document
    return found


def _nothing_left(cluster, env, lines):
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == [], \
        "a process of the run outlived it:\n" + "\n".join(lines[-30:])
    assert wait_until_empty(cluster.queue, 10) == [], "squeue still lists the job"


def test_every_rank_gets_its_task_tf_config_and_tf1_flags(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(slurm_cluster, 4, "--slurm", "--chief", "--ps", "1",
                                   "--workers", "2", "--tf1-flags", "--port-base", "23100",
                                   str(script), "--lr", "0.1", env=env), []
    try:
        status = finish(process, 60, lines)
        assert status == 0, "\n".join(lines)
        seen = _documents(lines)
        assert sorted(seen) == ["chief:0", "ps:0", "worker:0", "worker:1"]
        node = slurm_cluster.node
        # Rank order is launch's task order; ports are the base + the local rank on the node.
        cluster = {"chief": [f"{node}:23100"], "ps": [f"{node}:23101"],
                   "worker": [f"{node}:23102", f"{node}:23103"]}
        for rank, name in enumerate(["chief:0", "ps:0", "worker:0", "worker:1"]):
            job, index = name.split(":")
            assert seen[name]["rank"] == str(rank)
            assert seen[name]["tf_config"] == {"cluster": cluster,
                                               "task": {"type": job, "index": int(index)}}
            assert seen[name]["argv"] == [
                "--lr", "0.1", f"--job_name={job}", f"--task_index={index}",
                f"--chief_hosts={node}:23100", f"--ps_hosts={node}:23101",
                f"--worker_hosts={node}:23102,{node}:23103"]
            assert seen[name]["bind"] == "127.0.0.1"  # the node's address: `vm` -> 127.0.0.1
        # The chief ends the run (ps tasks serve forever; workers may not have ended yet).
        assert any(re.search(r"launch: chief:0 finished; stopping (.*, )?ps:0", line)
                   for line in lines), "\n".join(lines)
        assert "tf1compat launch: done: every task finished" in lines
        pids = task_pids(lines)
        assert sorted(pids) == sorted(seen)
        assert wait_gone(pids.values(), 5) == []
        _nothing_left(slurm_cluster, env, lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_a_killed_task_is_named_with_its_rank_node_and_signal(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "sleep.py", "import time\nprint('up', flush=True)\n"
                                                "time.sleep(300)\n")
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(slurm_cluster, 3, "--slurm", "--ps", "1", "--workers", "2",
                                   "--grace", "2", str(script), env=env), []
    try:
        while len(task_pids(lines)) < 3:
            read_until(process, r"started \S+ pid", 60, lines)
        os.kill(task_pids(lines)["worker:1"], signal.SIGKILL)
        status = finish(process, 60, lines)
        assert status == 128 + signal.SIGKILL, "\n".join(lines)
        node = slurm_cluster.node
        errors = [line for line in lines if line.startswith("tf1compat: error")]
        assert errors == [f"tf1compat: error: task worker:1 (rank 2 on node {node}) failed: "
                          "killed by SIGKILL (exit status 137)"], "\n".join(lines)
        assert wait_gone(task_pids(lines).values(), 10) == []
        _nothing_left(slurm_cluster, env, lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_ctrl_c_to_launch_stops_every_task_and_the_step(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "sleep.py", "import time\nprint('up', flush=True)\n"
                                                "time.sleep(300)\n")
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(slurm_cluster, 3, "--slurm", "--ps", "1", "--workers", "2",
                                   "--grace", "2", str(script), env=env), []
    try:
        while len(task_pids(lines)) < 3:
            read_until(process, r"started \S+ pid", 60, lines)
        (launch,) = children(process.pid)  # salloc's one child: launch itself
        os.kill(launch, signal.SIGINT)
        status = finish(process, 60, lines)
        assert status == 128 + signal.SIGINT, "\n".join(lines)
        assert "tf1compat launch: interrupted by SIGINT" in lines
        stopped = [line for line in lines if re.search(r"\) stopped: killed by SIGTERM$", line)]
        assert len(stopped) == 3, "\n".join(lines)
        _nothing_left(slurm_cluster, env, lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_the_emitted_batch_script_runs_the_same_layout_under_sbatch(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    env = launch_env(slurm_cluster)
    emitted = subprocess.run(
        [sys.executable, "-m", "tf1compat.cli.main", "launch", "--emit", "slurm", "--ps", "1", "--workers",
         "2", "--tf1-flags", "--port-base", "23200", str(script)],
        capture_output=True, text=True, cwd=str(REPO_ROOT), env=env, timeout=60)
    assert emitted.returncode == 0, emitted.stderr
    assert "#SBATCH --ntasks=3" in emitted.stdout.splitlines()
    job = tmp_path / "job.sh"
    job.write_text(emitted.stdout)
    output = tmp_path / "job.out"
    result = subprocess.run(["sbatch", "--wait", f"--output={output}", str(job)],
                            capture_output=True, text=True, env=env, timeout=120)
    lines = output.read_text().splitlines() if output.exists() else []
    assert result.returncode == 0, result.stderr + "\n".join(lines)
    seen = _documents(lines)
    node = slurm_cluster.node
    assert sorted(seen) == ["ps:0", "worker:0", "worker:1"]
    assert seen["worker:1"]["tf_config"] == {
        "cluster": {"ps": [f"{node}:23200"], "worker": [f"{node}:23201", f"{node}:23202"]},
        "task": {"type": "worker", "index": 1}}
    assert seen["ps:0"]["argv"][:2] == ["--job_name=ps", "--task_index=0"]
    assert "tf1compat launch: done: every task finished" in lines
    _nothing_left(slurm_cluster, env, lines)


def test_outside_an_allocation_srun_asks_for_one_with_the_slurm_args(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    env = launch_env(slurm_cluster)
    result = subprocess.run(
        [sys.executable, "-m", "tf1compat.cli.main", "launch", "--slurm",
         "--slurm-args=--time=5 --nodes=1", "--workers", "2", str(script)],
        capture_output=True, text=True, cwd=str(REPO_ROOT), env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    seen = _documents(result.stdout.splitlines())
    assert sorted(seen) == ["worker:0", "worker:1"]
    assert "--time=5 --nodes=1 " in result.stderr  # srun got them
    lines = result.stdout.splitlines() + result.stderr.splitlines()
    _nothing_left(slurm_cluster, env, lines)
