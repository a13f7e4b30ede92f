"""One task of `tf1compat launch --slurm`: what srun starts on every rank.

    srun ... python -u -m tf1compat.launch.slurm_task     (the plan in TF1COMPAT_SLURM_PLAN)

From its rank (`SLURM_PROCID`) and the step's nodes it works out the whole cluster, as
every other rank does (`tf1compat.shared.slurm_layout`), then runs the script with the
environment a local `launch` task gets (`launcher.task_environment`: TF_CONFIG, the task
fixes, servers confined to its node) and, with `tf1_flags`, TF1's flags. It prefixes
each line of the script's output with the task's name, and reports on stderr, as JSON
lines (`tf1compat.process.events`), that it started, ended or could not start:

    tf1compat-task-event {"address":"node2:20033","event":"started","node":"node2",...}

which the launcher reads and turns into lines for people (`tf1compat.launch.slurm_launcher`).
SIGTERM or SIGINT (srun forwards them when the run ends) stop the script's whole process
group; the script also dies if this process does (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from tf1compat.launch.launcher import task_environment, tf1_flags
from tf1compat.process import events
from tf1compat.process.exits import describe_exit, exit_status
from tf1compat.process.groups import signal_group
from tf1compat.process.lifetime import die_with_parent
from tf1compat.process.lines import forwarding_threads
from tf1compat.process.ports import port_listened_on
from tf1compat.shared import slurm_layout
from tf1compat.shared.cluster_spec import EVALUATOR
from tf1compat.shared.errors import LaunchError, Tf1CompatError

ENV_PLAN = "TF1COMPAT_SLURM_PLAN"


def report(kind: str, **fields) -> None:
    """One report to the launcher, on stderr (`tf1compat.process.events`)."""
    sys.stderr.write(events.encode(kind, **fields) + "\n")
    sys.stderr.flush()


def _same_node(planned: str, actual: str) -> bool:
    return planned == actual or planned.split(".")[0] == actual.split(".")[0]


def prepare(plan: dict, env: dict) -> tuple[str, list[str], dict, str]:
    """This rank's task name, command, environment and address (raises Tf1CompatError)."""
    tasks = [tuple(task) for task in plan["layout"]]
    rank = int(env["SLURM_PROCID"])
    hosts = slurm_layout.step_hosts(env)
    node = env.get("SLURMD_NODENAME") or socket.gethostname()
    if not _same_node(hosts[rank], node):
        raise LaunchError(
            f"rank {rank} runs on node {node}, but block distribution puts it on "
            f"{hosts[rank]}: the step was not started with --distribution=block")
    base = plan.get("port_base") or slurm_layout.default_port_base(env.get("SLURM_JOB_ID", "0"))
    cluster, ports = slurm_layout.step_cluster(tasks, hosts, int(base))
    job, index = tasks[rank]
    name = f"{job}:{index}"
    address = f"{hosts[rank]}:{ports[rank]}"
    if job != EVALUATOR:
        if port_listened_on(hosts[rank], ports[rank]):
            raise LaunchError(
                f"port {ports[rank]} on node {node} ({name}, rank {rank}) is already in use "
                "(another job on this node?); pass --port-base with a free range")
    bind_host = hosts[rank] if plan.get("bind", "task") == "task" else None
    attempt = int(env.get("TF1COMPAT_LAUNCH_ATTEMPT", "1"))  # set by the launcher per step
    task_env = task_environment(env, cluster, job, index, attempt, plan.get("keras_fix", True),
                                bind_host)
    task_env.pop(ENV_PLAN, None)  # launch's business, not the script's
    command = list(plan["command"])
    if plan.get("tf1_flags"):
        command += tf1_flags(cluster, job, index)
    return name, command, task_env, address if job != EVALUATOR \
        else f"{hosts[rank]} (no server)"


def run_task(plan: dict, env: dict) -> int:
    rank = int(env.get("SLURM_PROCID", "-1"))
    node = env.get("SLURMD_NODENAME") or socket.gethostname()
    try:
        name, command, task_env, address = prepare(plan, env)
    except Tf1CompatError as error:
        report("cannot_start", rank=rank, node=node, why=str(error))
        return 2
    stop = []

    def on_signal(signum, frame):
        stop.append(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    process = subprocess.Popen(die_with_parent(command, task_env), env=task_env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    lock = threading.Lock()
    threads = forwarding_threads(process, f"[{name}] ", sys.stdout, sys.stderr, lock)
    step = f"{env.get('SLURM_JOB_ID', '?')}.{env.get('SLURM_STEP_ID', '?')}"
    with lock:  # the task's first lines wait for the report that it started
        for thread in threads:
            thread.start()
        report("started", task=name, pid=process.pid, address=address, rank=rank, node=node,
               step=step)
    grace = float(plan.get("grace", 10.0))
    deadline = None
    while process.poll() is None:
        if stop and deadline is None:
            signal_group(process.pid, signal.SIGINT if stop[0] == signal.SIGINT
                         else signal.SIGTERM)
            deadline = time.monotonic() + grace
        if deadline is not None and time.monotonic() > deadline:
            signal_group(process.pid, signal.SIGKILL)
        time.sleep(0.05)
    signal_group(process.pid, signal.SIGKILL)  # the script's own children end with it
    for thread in threads:
        thread.join(timeout=2)
    code = process.returncode
    outcome = "finished" if code == 0 else ("stopped" if stop else "failed")
    with lock:
        report("ended", task=name, rank=rank, node=node, outcome=outcome,
               how=describe_exit(code), status=exit_status(code))
    return exit_status(code)


def main() -> int:
    text = os.environ.get(ENV_PLAN)
    if not text or "SLURM_PROCID" not in os.environ:
        sys.stderr.write(f"tf1compat launch: {__name__} runs as a task of `tf1compat launch "
                         f"--slurm` (srun sets SLURM_PROCID, launch sets {ENV_PLAN})\n")
        return 2
    return run_task(json.loads(text), dict(os.environ))


if __name__ == "__main__":
    sys.exit(main())
