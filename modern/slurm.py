"""`modern.slurm_cluster_resolver()`: TF's SlurmClusterResolver, working on CPU-only nodes.

    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        cluster_resolver=modern.slurm_cluster_resolver())       # in every task of `srun -n N`

TF 2.21's `tf.distribute.cluster_resolver.SlurmClusterResolver` cannot resolve a step on
nodes without GPUs: it asks nvidia-smi for the GPU count (FileNotFoundError where there is
none), and with 0 GPUs it divides the node's GPUs among its tasks with
`range(0, gpus_per_node, 0)` ("ValueError: range() arg 3 must not be zero",
tensorflow/tensorflow#56894). It also orders the nodes by name, not as Slurm placed the
ranks (node10 sorts before node9).

This subclass keeps TF's interface (`cluster_spec()`, `get_task_info()`, `master()`,
`num_accelerators()`) and resolves the way `tf1compat launch --slurm` does
(`tf1compat.shared.slurm_layout`): ranks in block order over the step's nodes as Slurm
lists them, jobs in launch's order (chief, ps, worker, evaluator), a task's port = port
base + its local rank (the same default base as launch). GPUs: the node's count is
CUDA_VISIBLE_DEVICES's length, else nvidia-smi's, else 0; each task gets its share (0 on
a CPU node, and then CUDA_VISIBLE_DEVICES is set empty so no task takes every GPU).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Mapping, Optional

from tf1compat.shared import slurm_layout
from tf1compat.shared.cluster_spec import _job_order
from tf1compat.shared.errors import ClusterError


def node_gpus(env: Mapping[str, str]) -> int:
    """GPUs on this node: CUDA_VISIBLE_DEVICES's length, nvidia-smi's list, else 0."""
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([part for part in visible.split(",") if part.strip()])
    if shutil.which("nvidia-smi") is None:
        return 0
    try:
        listing = subprocess.run(["nvidia-smi", "--list-gpus"], capture_output=True,
                                 text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(line.startswith("GPU ") for line in listing.stdout.splitlines()) \
        if listing.returncode == 0 else 0


def _resolver_class():
    import tensorflow as tf

    base = tf.distribute.cluster_resolver.SlurmClusterResolver

    class CpuSafeSlurmClusterResolver(base):
        """See `modern.slurm`: TF's resolver with 0-GPU nodes and Slurm's rank order."""

        def __init__(self, rank, jobs, hosts, port_base, gpus_per_node, gpus_per_task,
                     auto_set_gpu, rpc_layer):
            # our own copies: the base class keeps its arguments in private attributes
            self._given_rank = rank
            self._hosts = list(hosts)
            self._given_jobs = dict(jobs)
            self._given_port_base = port_base
            self._given_gpus_per_task = gpus_per_task
            self._given_auto_set_gpu = auto_set_gpu
            configuration: dict[str, int] = {}
            for host in self._hosts:
                configuration[host] = configuration.get(host, 0) + 1
            super().__init__(jobs=dict(jobs), port_base=port_base,
                             gpus_per_node=gpus_per_node, gpus_per_task=gpus_per_task,
                             tasks_per_node=configuration, auto_set_gpu=auto_set_gpu,
                             rpc_layer=rpc_layer)

        def _resolve_own_rank(self):  # from the environment given, not only os.environ
            return self._given_rank

        def cluster_spec(self):
            jobs = self._given_jobs
            tasks = [(job, index) for job in sorted(jobs, key=_job_order)
                     for index in range(jobs[job])]
            cluster, ports = slurm_layout.step_cluster(tasks, self._hosts,
                                                       self._given_port_base)
            rank = self._given_rank
            self.task_type, self.task_id = tasks[rank]
            local_rank = ports[rank] - self._given_port_base
            first = local_rank * self._given_gpus_per_task
            self._gpu_allocation = [",".join(str(gpu) for gpu in
                                             range(first, first + self._given_gpus_per_task))]
            self._cluster_allocation = cluster.as_dict()
            if self._given_auto_set_gpu:
                os.environ["CUDA_VISIBLE_DEVICES"] = self._gpu_allocation[0]
            return tf.train.ClusterSpec(self._cluster_allocation)

    return CpuSafeSlurmClusterResolver


def slurm_cluster_resolver(jobs: Optional[Mapping[str, int]] = None, *,
                           port_base: Optional[int] = None, gpus_per_task: Optional[int] = None,
                           auto_set_gpu: bool = True, rpc_layer: str = "grpc",
                           env: Optional[Mapping[str, str]] = None):
    """A SlurmClusterResolver for this srun task (see the module's docstring).

    Args:
      jobs: {job: task count} in rank order chief, ps, worker, evaluator (default: every
        task of the step a worker, as TF's resolver does).
      port_base: a task listens on port_base + its local rank (default: launch's rule).
      gpus_per_task: default: the node's GPUs shared among its tasks (0 on a CPU node).

    Raises:
      ClusterError: not in an srun step, or `jobs` does not add up to the step's tasks.
    """
    env = dict(os.environ if env is None else env)
    missing = [name for name in ("SLURM_PROCID", "SLURM_STEP_NODELIST",
                                 "SLURM_STEP_TASKS_PER_NODE") if not env.get(name)]
    if missing:
        raise ClusterError(f"slurm_cluster_resolver runs in a task of an srun step: "
                           f"{', '.join(missing)} not set (start the script with srun)")
    hosts = slurm_layout.step_hosts(env)
    jobs = dict(jobs) if jobs is not None else {"worker": len(hosts)}
    if sum(jobs.values()) != len(hosts) or any(n < 0 for n in jobs.values()):
        raise ClusterError(f"invalid jobs: received {jobs!r} ({sum(jobs.values())} tasks); "
                           f"accepted: counts that add up to the step's {len(hosts)} tasks")
    if port_base is None:
        port_base = slurm_layout.default_port_base(env.get("SLURM_JOB_ID", "0"))
    per_node = max(hosts.count(host) for host in set(hosts))
    gpus = node_gpus(env)
    if gpus_per_task is None:
        gpus_per_task = gpus // per_node
    if gpus_per_task < 0 or per_node * gpus_per_task > gpus:
        raise ClusterError(f"invalid gpus_per_task: received {gpus_per_task}; accepted: 0 to "
                           f"{gpus // per_node} ({gpus} GPUs for {per_node} tasks a node)")
    resolver = _resolver_class()(int(env["SLURM_PROCID"]), jobs, hosts, port_base, gpus,
                                 gpus_per_task, auto_set_gpu, rpc_layer)
    resolver.cluster_spec()  # sets task_type/task_id, as TF's resolver users expect
    return resolver
