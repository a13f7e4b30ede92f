"""Where each task of a `tf1compat launch --slurm` run lives: rank, node and port.

Shared by the launcher and its tasks (tf1compat.launch) and `modern.slurm_cluster_resolver`.

The rules, the same in the launcher and in every task (`tf1compat.launch.slurm_task`):

- Rank order is launch's task order: chief, ps 0..M-1, worker 0..N-1, then the
  evaluator. Slurm task `SLURM_PROCID` r runs the r-th task of that list.
- Nodes: one `srun --distribution=block` step; the r-th rank runs on the node Slurm put
  it on, read from the step's node list (`SLURM_STEP_NODELIST`, expanded as Slurm expands
  it: `scontrol show hostnames`) and its tasks per node (`SLURM_STEP_TASKS_PER_NODE`,
  "2(x3),1"): block distribution fills the first node's slots, then the next node's.
- Ports: a task listens on `port base + its local rank on its node` (SLURM_LOCALID).
  The default base is 20000 + 32 x (job id mod 1000), so two jobs sharing a node differ
  unless their ids are equal mod 1000; `--port-base` sets it (each job its own). Every
  task checks its port is free before it starts and names it when it is not.
- A task's address is its node's name, as the cluster names its nodes; its servers
  listen on that name's address only (`tf1compat.launch.bindhost`).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
from typing import Mapping, Optional, Sequence

from tf1compat.shared.cluster_spec import CHIEF, EVALUATOR, PS, WORKER, Cluster
from tf1compat.shared.errors import LaunchError

PORTS_PER_JOB = 32  # the default bases of two job ids 1 apart are this many ports apart
DEFAULT_PORT_FLOOR = 20000
_RANGE = re.compile(r"^\d+(-\d+)?$")
_NAME_PART = re.compile(r"^[A-Za-z0-9_.-]*$")
_COUNT = re.compile(r"^(\d+)(\(x(\d+)\))?$")


def layout(workers: int, ps: int, chief: bool, evaluator: bool) -> list[tuple[str, int]]:
    """The tasks in rank order: chief, ps..., worker..., evaluator."""
    return ([(CHIEF, 0)] if chief else []) + [(PS, i) for i in range(ps)] + \
        [(WORKER, i) for i in range(workers)] + ([(EVALUATOR, 0)] if evaluator else [])


def describe_layout(tasks: Sequence[tuple[str, int]]) -> str:
    counts: dict[str, int] = {}
    for job, _ in tasks:
        counts[job] = counts.get(job, 0) + 1
    return ", ".join(f"{n} {job}" for job, n in counts.items())


def check_hostlist(text: str, where: str) -> None:
    """Raises LaunchError unless `text` is a Slurm host list: name, name[1-3,7], a,b[01-02]."""
    accepted = "names separated by commas, each with optional [ranges], e.g. node[01-04,07],gpu1"
    problem = None
    if not text or not text.strip():
        problem = "it is empty"
    depth, item, items = 0, "", []
    for char in text or "":
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if depth not in (0, 1):
            problem = "its brackets do not pair"
            break
        if char == "," and depth == 0:
            items.append(item)
            item = ""
        else:
            item += char
    items.append(item)
    if problem is None and depth != 0:
        problem = "its brackets do not pair"
    for entry in items if problem is None else ():
        outside = re.sub(r"\[[^\]]*\]", "", entry)
        ranges = re.findall(r"\[([^\]]*)\]", entry)
        if not entry or not _NAME_PART.match(outside) or not outside and ranges:
            problem = f"{entry!r} is not a host name"
        elif any(not _RANGE.match(part) for group in ranges for part in group.split(",")):
            problem = f"{entry!r} has a range that is not N or N-M"
        if problem:
            break
    if problem:
        raise LaunchError(f"node list {where}={text!r} does not parse: {problem}; "
                          f"accepted: {accepted}")


def expand_hostlist(text: str, where: str, env: Optional[Mapping[str, str]] = None) -> list[str]:
    """The host names of a Slurm host list, as `scontrol show hostnames` gives them."""
    check_hostlist(text, where)
    scontrol = shutil.which("scontrol")
    if scontrol is None:
        raise LaunchError(f"cannot expand the node list {where}={text!r}: scontrol is not on "
                          "PATH (run inside a Slurm allocation, on a node with Slurm's commands)")
    result = subprocess.run([scontrol, "show", "hostnames", text], capture_output=True,
                            text=True, env=dict(env if env is not None else os.environ),
                            timeout=60)
    names = result.stdout.split()
    if result.returncode != 0 or not names:
        reason = (result.stderr.strip().splitlines() or [f"exit {result.returncode}"])[-1]
        raise LaunchError(f"node list {where}={text!r} does not parse: scontrol show "
                          f"hostnames says {reason!r}")
    return names


def expand_counts(text: str, where: str) -> list[int]:
    """Slurm's compressed counts per node: '2(x3),1' -> [2, 2, 2, 1]."""
    counts = []
    for part in (text or "").split(","):
        match = _COUNT.match(part.strip())
        if not match:
            raise LaunchError(f"invalid {where}: received {text!r}; accepted: counts per node "
                              "as Slurm writes them, e.g. 2(x3),1")
        counts += [int(match.group(1))] * int(match.group(3) or 1)
    return counts


def default_port_base(job_id: str) -> int:
    number = int(job_id) if str(job_id).isdigit() else 0
    return DEFAULT_PORT_FLOOR + PORTS_PER_JOB * (number % 1000)


@dataclasses.dataclass(frozen=True)
class Allocation:
    """The Slurm allocation this process runs in (from salloc's or sbatch's environment)."""

    job_id: str
    nodes: tuple[str, ...]
    slots: Optional[int]       # tasks it has room for, when Slurm says
    slots_from: str            # the variable that said so

    @classmethod
    def from_environment(cls, env: Mapping[str, str]) -> Optional["Allocation"]:
        job_id = env.get("SLURM_JOB_ID") or env.get("SLURM_JOBID")
        if not job_id:
            return None
        where = "SLURM_JOB_NODELIST" if env.get("SLURM_JOB_NODELIST") else "SLURM_NODELIST"
        nodes = tuple(expand_hostlist(env.get(where, ""), where, env))
        slots, slots_from = None, ""
        if env.get("SLURM_NTASKS"):
            slots, slots_from = int(env["SLURM_NTASKS"]), f"SLURM_NTASKS={env['SLURM_NTASKS']}"
        elif env.get("SLURM_JOB_CPUS_PER_NODE"):
            text = env["SLURM_JOB_CPUS_PER_NODE"]
            per_task = int(env.get("SLURM_CPUS_PER_TASK") or 1)
            slots = sum(expand_counts(text, "SLURM_JOB_CPUS_PER_NODE")) // per_task
            slots_from = f"SLURM_JOB_CPUS_PER_NODE={text}"
        return cls(job_id, nodes, slots, slots_from)

    def check_room(self, tasks: Sequence[tuple[str, int]], overcommit: bool) -> None:
        if self.slots is None or overcommit or len(tasks) <= self.slots:
            return
        raise LaunchError(f"more tasks than the allocation has: the layout needs {len(tasks)} "
                          f"tasks ({describe_layout(tasks)}), job {self.job_id} has room for "
                          f"{self.slots} ({self.slots_from}); ask salloc/sbatch for "
                          f"--ntasks={len(tasks)}, or pass --slurm-args=--overcommit")


def step_hosts(env: Mapping[str, str]) -> list[str]:
    """The node of every rank of this srun step (block distribution), from its environment."""
    nodes = expand_hostlist(env.get("SLURM_STEP_NODELIST", ""), "SLURM_STEP_NODELIST", env)
    counts = expand_counts(env.get("SLURM_STEP_TASKS_PER_NODE", ""), "SLURM_STEP_TASKS_PER_NODE")
    if len(counts) != len(nodes):
        raise LaunchError(f"SLURM_STEP_TASKS_PER_NODE={env.get('SLURM_STEP_TASKS_PER_NODE')!r} "
                          f"gives {len(counts)} nodes, SLURM_STEP_NODELIST "
                          f"{len(nodes)}: not a step of one srun")
    return [node for node, count in zip(nodes, counts) for _ in range(count)]


def step_cluster(tasks: Sequence[tuple[str, int]], hosts: Sequence[str],
                 port_base: int) -> tuple[Cluster, list[int]]:
    """The cluster of a step (its addresses node:port) and each rank's port.

    The evaluator (outside the cluster, no server) keeps its slot in the port count, so a
    task's port is always port base + its local rank.
    """
    if len(hosts) != len(tasks):
        raise LaunchError(f"the srun step has {len(hosts)} tasks and the layout "
                          f"{len(tasks)} ({describe_layout(tasks)})")
    ports, seen = [], {}
    for host in hosts:
        ports.append(port_base + seen.get(host, 0))
        seen[host] = seen.get(host, 0) + 1
    if max(ports) > 65535:
        raise LaunchError(f"--port-base {port_base} leaves no room for {max(seen.values())} "
                          "tasks on one node below port 65536; pass a lower --port-base")
    jobs: dict[str, list[str]] = {}
    for (job, _), host, port in zip(tasks, hosts, ports):
        if job != EVALUATOR:
            jobs.setdefault(job, []).append(f"{host}:{port}")
    return Cluster(jobs), ports
