"""scripts/train_and_evaluate.py run locally and as a cluster: under TF 1.15 and through launch.

Under TensorFlow 1.15 the cluster is started as TF1 users started it: one
process per task, each with its own TF_CONFIG (the evaluator's names a task
outside the cluster). Here it is `tf1compat launch --evaluator`, each task
`tf1compat run` of the same script. Every process is accounted for by pid.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from estimator.reference import SCRIPTS, needs_tf1
from isolated import run_cli
from launch_helpers import finish, kill_group, kill_tasks, start, task_pids, wait_gone

SCRIPT = SCRIPTS / "train_and_evaluate.py"
TASKS = ("chief-0", "worker-0", "worker-1", "evaluator-0")
SCRIPT_PID = re.compile(r"task pid (\d+)")


def results(out_dir: Path, tasks=TASKS) -> dict:
    missing = [task for task in tasks if not (out_dir / f"{task}.json").exists()]
    assert not missing, f"no result from {missing} in {sorted(os.listdir(out_dir))}"
    return {task: json.loads((out_dir / f"{task}.json").read_text()) for task in tasks}


def tf1_env(tf_config: dict | None = None) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "TF_CONFIG", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    if tf_config is not None:
        env["TF_CONFIG"] = json.dumps(tf_config)
    return env


def local_tf1(out_dir: Path, *args: str) -> dict:
    out_dir.mkdir()
    from tf1_reference import recorded

    result = recorded.run(needs_tf1(), [str(SCRIPT), "--model_dir", str(out_dir / "model"),
                                        "--out_dir", str(out_dir), *args],
                          cwd=out_dir, env=tf1_env(), timeout=600,
                          varies=[r"^task pid \d+$"])  # the cluster tests kill tasks by it
    assert result.returncode == 0, f"TF 1.15 run failed:\n{result.stderr[-4000:]}"
    return results(out_dir, ["worker-0"])["worker-0"]


def local_here(out_dir: Path, *args: str) -> dict:
    out_dir.mkdir()
    result = run_cli("run", "--no-report", str(SCRIPT), "--model_dir", str(out_dir / "model"),
                     "--out_dir", str(out_dir), *args, timeout=600)
    assert result.returncode == 0, f"tf1compat run failed:\n{result.stderr[-4000:]}"
    return results(out_dir, ["worker-0"])["worker-0"]


def launched_here(out_dir: Path, max_steps: int) -> dict:
    """The cluster through `tf1compat launch`; its results, output and every pid it involved."""
    out_dir.mkdir()
    process, lines = start("--chief", "--ps", "1", "--workers", "2", "--evaluator",
                           "--wait-for", "chief,worker,evaluator", "--grace", "5",
                           "-m", "tf1compat.cli.main", "run", "--no-report", str(SCRIPT),
                           "--model_dir", str(out_dir / "model"), "--out_dir", str(out_dir),
                           "--max_steps", str(max_steps), "--trainers", "3"), []
    try:
        status = finish(process, 400, lines)
        pids = list(task_pids(lines).values()) + \
            [int(match.group(1)) for match in map(SCRIPT_PID.search, lines) if match]
        left = wait_gone(pids, 10)  # before the clean-up below could hide a survivor
    finally:
        kill_group(process)
        kill_tasks(lines)
    return {"status": status, "lines": lines, "tasks": task_pids(lines), "pids": pids,
            "left": left, "results": results(out_dir) if status == 0 else {}}


def tf1_cluster(out_dir: Path, max_steps: int) -> dict:
    """The same cluster under TF 1.15: a TF_CONFIG per process, started and stopped here."""
    from tf1compat.shared.cluster_spec import free_ports

    out_dir.mkdir()
    ports = iter(free_ports(4))
    cluster = {"chief": [f"127.0.0.1:{next(ports)}"], "ps": [f"127.0.0.1:{next(ports)}"],
               "worker": [f"127.0.0.1:{next(ports)}", f"127.0.0.1:{next(ports)}"]}
    processes = {}
    try:
        for job, index in (("ps", 0), ("chief", 0), ("worker", 0), ("worker", 1),
                           ("evaluator", 0)):
            tf_config = {"cluster": cluster, "task": {"type": job, "index": index}}
            log = open(out_dir / f"{job}-{index}.log", "w")
            processes[f"{job}-{index}"] = subprocess.Popen(
                [needs_tf1(), str(SCRIPT), "--model_dir", str(out_dir / "model"), "--out_dir",
                 str(out_dir), "--max_steps", str(max_steps), "--trainers", "3"],
                stdout=log, stderr=subprocess.STDOUT, env=tf1_env(tf_config), cwd=str(out_dir),
                start_new_session=True)
        deadline = time.monotonic() + 400
        for task in TASKS:
            codes = processes[task].wait(timeout=max(1.0, deadline - time.monotonic()))
            assert codes == 0, (out_dir / f"{task}.log").read_text()[-4000:]
        return results(out_dir)
    finally:
        for process in processes.values():  # the ps serves until it is stopped
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
