"""One task of `tf1compat launch --slurm`: what srun starts on every rank.

    srun ... python -u -m tf1compat.launch.slurm_task     (the plan in TF1COMPAT_SLURM_PLAN)

From its rank (`SLURM_PROCID`) and the step's nodes it works out the whole cluster, as
every other rank does (`tf1compat.shared.slurm_layout`), then runs the script with the
environment a local `launch` task gets (`launcher.task_environment`: TF_CONFIG, the task
fixes, servers confined to its node) and, with `tf1_flags`, TF1's flags. It prefixes
each line of the script's output with the task's name, and writes on stderr:

    tf1compat launch: started worker:1 pid 4242 at node2:20033 (rank 2 on node node2, step 17.0)
    tf1compat launch: worker:1 (rank 2 on node node2) failed: killed by SIGKILL

which the launcher reads (`tf1compat.launch.slurm_launcher`). SIGTERM or SIGINT (srun
forwards them when the run ends) stop the script's whole process group; the script also
dies if this process does (PR_SET_PDEATHSIG).
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

from tf1compat.shared import slurm_layout
from tf1compat.launch.launcher import describe_exit, exit_status, task_environment, tf1_flags
from tf1compat.runner.lifetime import die_with_parent
from tf1compat.shared.cluster_spec import EVALUATOR
from tf1compat.shared.errors import LaunchError, Tf1CompatError

ENV_PLAN = "TF1COMPAT_SLURM_PLAN"
NOTE = "tf1compat launch: "


def note(text: str) -> None:
    sys.stderr.write(f"{NOTE}{text}\n")
    sys.stderr.flush()


def _forward(stream, prefix: str, sink, lock: threading.Lock) -> None:
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        with lock:
            sink.write(f"{prefix}{line}\n")
            sink.flush()
    stream.close()


def port_listened_on(host: str, port: int) -> bool:
    """Whether something listens on host:port. Unlike a plain bind, the check ignores
    connections of an earlier run left in TIME_WAIT, as TensorFlow's server (SO_REUSEADDR)
    does: job ids, and so default ports, come back."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return False
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError:
            return True
    return False


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
    rank = env.get("SLURM_PROCID", "?")
    node = env.get("SLURMD_NODENAME") or socket.gethostname()
    try:
        name, command, task_env, address = prepare(plan, env)
    except Tf1CompatError as error:
        note(f"rank {rank} on node {node} cannot start: {error}")
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
    threads = [threading.Thread(target=_forward, args=(stream, f"[{name}] ", sink, lock),
                                daemon=True)
               for stream, sink in ((process.stdout, sys.stdout), (process.stderr, sys.stderr))]
    step = f"{env.get('SLURM_JOB_ID', '?')}.{env.get('SLURM_STEP_ID', '?')}"
    with lock:  # the task's first lines wait for the line saying it started
        for thread in threads:
            thread.start()
        note(f"started {name} pid {process.pid} at {address} (rank {rank} on node {node}, "
             f"step {step})")
    grace = float(plan.get("grace", 10.0))
    deadline = None
    while process.poll() is None:
        if stop and deadline is None:
            _signal_group(process.pid, signal.SIGINT if stop[0] == signal.SIGINT
                          else signal.SIGTERM)
            deadline = time.monotonic() + grace
        if deadline is not None and time.monotonic() > deadline:
            _signal_group(process.pid, signal.SIGKILL)
        time.sleep(0.05)
    _signal_group(process.pid, signal.SIGKILL)  # the script's own children end with it
    for thread in threads:
        thread.join(timeout=2)
    code = process.returncode
    outcome = "finished" if code == 0 else ("stopped" if stop else "failed")
    with lock:
        note(f"{name} (rank {rank} on node {node}) {outcome}: {describe_exit(code)}")
    return exit_status(code)


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def main() -> int:
    text = os.environ.get(ENV_PLAN)
    if not text or "SLURM_PROCID" not in os.environ:
        note(f"{__name__} runs as a task of `tf1compat launch --slurm` (srun sets "
             f"SLURM_PROCID, launch sets {ENV_PLAN})")
        return 2
    return run_task(json.loads(text), dict(os.environ))


if __name__ == "__main__":
    sys.exit(main())
