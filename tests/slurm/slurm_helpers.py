"""Running `tf1compat launch --slurm` on the test cluster, and finding what it left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from budgets import budget, describe
from isolated import REPO_ROOT
from launch_helpers import STARTED, finish, kill_group, kill_tasks, read_until

# A test's runs carry this variable (a fresh value each run): any process that still has it
# once the run is over was left behind, whoever its parent.
RUN_MARK = "TF1COMPAT_TEST_SLURM_RUN"


def launch_env(cluster, extra: dict | None = None) -> dict:
    env = cluster.client_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env[RUN_MARK] = uuid.uuid4().hex
    env.update(extra or {})
    return env


def salloc_launch(cluster, ntasks: int, *launch_args: str, env: dict | None = None,
                  nodes: int | None = None) -> subprocess.Popen:
    """`salloc [--nodes=M] --ntasks=N tf1compat launch ARGS` in its own process group, output
    merged."""
    spread = [f"--nodes={nodes}"] if nodes else []
    return subprocess.Popen(
        ["salloc", *spread, f"--ntasks={ntasks}", sys.executable, "-m", "tf1compat.cli.main",
         "launch", *launch_args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=str(REPO_ROOT), env=env if env is not None else launch_env(cluster),
        start_new_session=True)


def nodes_of(lines) -> dict[str, str]:
    """task -> the node launch started it on, from its `started NAME pid P at NODE:PORT` lines
    (a restarted task: its latest start)."""
    return {name: address.split(":")[0] for name, _, address in
            STARTED.findall("\n".join(lines))}


def losing_a_node(cluster, ntasks: int, launch_args: list[str], env: dict, after: str,
                  task: str = "worker:1") -> tuple[list[str], str]:
    """`salloc --no-kill --nodes=3 --ntasks=N tf1compat launch ARGS` on the namespaced cluster;
    once a line matches `after`, the node `task` runs on is killed (tests/slurm/netns_cluster.py,
    `kill_node`). Waits for launch to succeed, brings the node back; (output lines, lost node).
    The node must run `task` alone, so that the tasks still fit on the nodes left."""
    command = ["salloc", "--no-kill", "--nodes=3", f"--ntasks={ntasks}", sys.executable, "-m",
               "tf1compat.cli.main", "launch", *launch_args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, cwd=str(REPO_ROOT), env=env, start_new_session=True)
    lines, lost = [], None
    try:
        read_until(process, after, 240, lines)
        nodes = nodes_of(lines)
        lost = nodes[task]
        assert list(nodes.values()).count(lost) == 1, nodes
        cluster.kill_node(lost)
        assert finish(process, 300, lines) == 0, "\n".join(lines[-60:])
    finally:
        kill_group(process)
        kill_tasks(lines)
        if lost is not None:
            cluster.revive_node(lost)
    return lines, lost


def marked_processes(mark: str) -> list[int]:
    """Processes whose environment holds RUN_MARK=mark (zombies excluded)."""
    found = []
    needle = f"{RUN_MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


def wait_until_empty(what, idle_seconds: float) -> list:
    """Polls `what()` until it returns an empty list; returns what was left at the end."""
    started = time.monotonic()
    deadline = started + budget(idle_seconds, floor=idle_seconds)
    left = what()
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = what()
    if left:
        print(f"still there after {describe(time.monotonic() - started, idle_seconds, idle_seconds)}:"
              f" {left}")
    return left


def children(pid: int) -> list[int]:
    """The direct children of `pid` (Linux /proc)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]
