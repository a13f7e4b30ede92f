"""`Cluster`: one checked description of a TF cluster, shared by both worlds.

A TF1 script describes its cluster with `tf.train.ClusterSpec` plus its own
job name and task index; a TF2 script reads the same facts from the
`TF_CONFIG` environment variable. `Cluster` holds them once, checks them when
it is built, and converts in both directions:

    ClusterSpec / {job: [host:port, ...]}  <->  Cluster  <->  TF_CONFIG JSON

Building one does not import TensorFlow (only `to_cluster_spec` does).
`tf1compat.cluster` starts servers from it; `modern.cluster` builds strategies.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from tf1compat.shared.errors import ClusterError

# Jobs TF's own cluster resolvers give a meaning to; other names are allowed
# (TF1 clusters could name jobs freely) but these are checked by mode.
CHIEF, WORKER, PS, EVALUATOR = "chief", "worker", "ps", "evaluator"
_JOB_ORDER = (CHIEF, PS, WORKER, EVALUATOR)
_JOB_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)$")
_ADDRESS_ACCEPTED = "host:port with a port from 1 to 65535 (IPv6 as [::1]:port)"

Mode = str  # "sync" (multi_worker_mirrored), "async" (parameter_server), "between_graph" (TF1)
MODES = ("sync", "async", "between_graph")


def check_address(address: Any, where: str = "address") -> str:
    """Returns `address` if it is `host:port`, else raises ClusterError naming it.

    >>> check_address("127.0.0.1:2222")
    '127.0.0.1:2222'
    """
    if not isinstance(address, str) or ":" not in address:
        raise ClusterError(f"invalid {where}: received {address!r}; accepted: {_ADDRESS_ACCEPTED}")
    host, _, port = address.strip().rpartition(":")
    if not host or not _HOST.match(host) or (":" in host and not host.startswith("[")):
        raise ClusterError(f"invalid {where}: received {address!r}; accepted: {_ADDRESS_ACCEPTED}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ClusterError(f"invalid {where}: received {address!r} (port {port!r}); "
                           f"accepted: {_ADDRESS_ACCEPTED}")
    return address.strip()


def split_address(address: str) -> tuple[str, int]:
    """'127.0.0.1:2222' -> ('127.0.0.1', 2222); '[::1]:2222' -> ('::1', 2222)."""
    host, _, port = check_address(address).rpartition(":")
    return host.strip("[]"), int(port)


def _job_order(name: str) -> tuple[int, str]:
    return (_JOB_ORDER.index(name) if name in _JOB_ORDER else len(_JOB_ORDER), name)


def _addresses_of(job: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Mapping):  # ClusterSpec allows {task_index: address}
        indices = sorted(value)
        if indices != list(range(len(indices))):
            raise ClusterError(f"job {job!r} has task indices {indices}; accepted: 0..n-1 with no gap")
        value = [value[i] for i in indices]
    if not isinstance(value, (list, tuple)) or not value:
        raise ClusterError(f"job {job!r}: received {value!r}; accepted: a non-empty list of "
                           "host:port addresses")
    return tuple(check_address(a, f"address of {job}:{i}") for i, a in enumerate(value))


@dataclasses.dataclass(frozen=True)
class Cluster:
    """Jobs and their task addresses, plus (optionally) which task this process is.

    Args:
      jobs: {job name: [host:port, ...]}, a `tf.train.ClusterSpec`, or its dict.
      task_type: this process's job (e.g. "worker"), or None for "no task".
      task_index: this process's index in that job.

    Raises:
      ClusterError: malformed or duplicate addresses, an unknown job, a task
        index out of range, more than one chief.

    >>> c = Cluster({"ps": ["127.0.0.1:2222"], "worker": ["127.0.0.1:2223"]}, "worker", 0)
    >>> c.task, c.num_tasks("worker")
    ('worker:0', 1)
    """

    jobs: tuple[tuple[str, tuple[str, ...]], ...]
    task_type: Optional[str] = None
    task_index: Optional[int] = None

    def __init__(self, jobs: Any, task_type: Optional[str] = None,
                 task_index: Optional[int] = None):
        if hasattr(jobs, "as_dict"):  # tf.train.ClusterSpec
            jobs = jobs.as_dict()
        if isinstance(jobs, Cluster):
            jobs = jobs.as_dict()
        if not isinstance(jobs, Mapping) or not jobs:
            raise ClusterError(f"invalid cluster: received {jobs!r}; accepted: a non-empty "
                               "{job: [host:port, ...]} or a tf.train.ClusterSpec")
        checked = []
        seen: dict[str, str] = {}
        for name in sorted(jobs, key=_job_order):
            if not isinstance(name, str) or not _JOB_NAME.match(name):
                raise ClusterError(f"invalid job name: received {name!r}; accepted: letters, "
                                   "digits and _ (e.g. 'worker', 'ps', 'chief')")
            addresses = _addresses_of(name, jobs[name])
            for index, address in enumerate(addresses):
                other = seen.get(address)
                if other:
                    raise ClusterError(f"duplicate address {address!r}: used by {other} and "
                                       f"{name}:{index}; every task needs its own host:port")
                seen[address] = f"{name}:{index}"
            checked.append((name, addresses))
        object.__setattr__(self, "jobs", tuple(checked))
        if len(self.addresses(CHIEF)) > 1:
            raise ClusterError(f"job 'chief' has {len(self.addresses(CHIEF))} tasks "
                               f"({list(self.addresses(CHIEF))}); accepted: exactly one chief")
        if task_type is None and task_index is not None:
            raise ClusterError(f"task_index={task_index!r} given without a job name")
        if task_type is not None:
            task_index = 0 if task_index is None else task_index
            self._check_task(task_type, task_index)
        object.__setattr__(self, "task_type", task_type)
        object.__setattr__(self, "task_index", task_index)

    def _check_task(self, task_type: Any, task_index: Any) -> None:
        if task_type not in self.job_names:
            raise ClusterError(f"job {task_type!r} is not in the cluster; jobs: {self.job_names}")
        count = self.num_tasks(task_type)
        if isinstance(task_index, bool) or not isinstance(task_index, int) \
                or not 0 <= task_index < count:
            raise ClusterError(f"task index out of range: received {task_type}:{task_index!r}; "
                               f"accepted: 0..{count - 1} (job {task_type!r} has {count} "
                               f"task{'s' if count != 1 else ''})")

    # -- reading ----------------------------------------------------------

    @property
    def job_names(self) -> list[str]:
        return [name for name, _ in self.jobs]

    def addresses(self, job: str) -> tuple[str, ...]:
        return dict(self.jobs).get(job, ())

    def num_tasks(self, job: str) -> int:
        return len(self.addresses(job))

    def address(self, job: Optional[str] = None, index: Optional[int] = None) -> str:
        """The host:port of a task (default: this process's task)."""
        job = self.task_type if job is None else job
        index = (self.task_index if job == self.task_type else 0) if index is None else index
        if job is None:
            raise ClusterError("this Cluster names no task: pass job and index")
        self._check_task(job, index)
        return self.addresses(job)[index]

    @property
    def task(self) -> Optional[str]:
        """'worker:1' for this process's task, None when none is set."""
        return None if self.task_type is None else f"{self.task_type}:{self.task_index}"

    def tasks(self) -> list[tuple[str, int]]:
        """Every (job, index) of the cluster, chief first, then ps, worker, others."""
        return [(name, i) for name, addresses in self.jobs for i in range(len(addresses))]

    @property
    def is_chief(self) -> bool:
        """The chief job's task, or worker 0 in a cluster without a chief (TF's rule)."""
        if self.task_type == CHIEF:
            return True
        return self.task_type == WORKER and self.task_index == 0 and not self.addresses(CHIEF)

    def as_dict(self) -> dict[str, list[str]]:
        return {name: list(addresses) for name, addresses in self.jobs}

    def with_task(self, task_type: str, task_index: int = 0) -> "Cluster":
        return Cluster(self.as_dict(), task_type, task_index)

    def __str__(self) -> str:
        jobs = ", ".join(f"{name}={list(addresses)}" for name, addresses in self.jobs)
        return f"Cluster({jobs}{', task=' + self.task if self.task else ''})"

    # -- checks by training mode ------------------------------------------

    def require(self, mode: Mode) -> "Cluster":
        """Checks that the jobs fit a training mode; returns self.

        - "sync" (MultiWorkerMirroredStrategy): chief and/or worker tasks, no ps.
        - "async" (ParameterServerStrategy): one chief (the coordinator), at
          least one ps and one worker.
        - "between_graph" (TF1 replica_device_setter): at least one ps and one worker.

        Raises:
          ClusterError: naming the job that is missing or not allowed.
        """
        if mode not in MODES:
            raise ClusterError(f"invalid mode: received {mode!r}; accepted: {', '.join(MODES)}")
        have = {name: len(addresses) for name, addresses in self.jobs}
        needs = {"sync": [], "async": [CHIEF, PS, WORKER], "between_graph": [PS, WORKER]}[mode]
        missing = [job for job in needs if not have.get(job)]
        if mode == "sync" and not (have.get(WORKER) or have.get(CHIEF)):
            missing = [WORKER]
        if missing:
            what = {"sync": "synchronous training (multi_worker_mirrored)",
                    "async": "asynchronous training (parameter_server + coordinator)",
                    "between_graph": "TF1 between-graph replication"}[mode]
            raise ClusterError(f"missing {'/'.join(missing)} job for {what}: received jobs "
                               f"{self.as_dict()}; accepted: a cluster with "
                               f"{', '.join(needs or ['worker'])} tasks")
        if mode == "sync" and have.get(PS):
            raise ClusterError(f"a ps job has no place in synchronous training "
                               f"(multi_worker_mirrored): received jobs {self.as_dict()}; "
                               "drop the ps job, or use parameter_server")
        return self

    # -- conversions --------------------------------------------------------

    def to_cluster_spec(self):
        """The `tf.train.ClusterSpec` of these jobs (imports TensorFlow)."""
        import tensorflow as tf

        return tf.train.ClusterSpec(self.as_dict())

    def to_tf_config(self, task_type: Optional[str] = None,
                     task_index: Optional[int] = None) -> dict[str, Any]:
        """The TF_CONFIG document (a dict) for a task (default: this process's)."""
        task_type = self.task_type if task_type is None else task_type
        if task_type is None:
            return {"cluster": self.as_dict()}
        if task_index is None:
            task_index = self.task_index if task_type == self.task_type else 0
        self._check_task(task_type, task_index)
        return {"cluster": self.as_dict(), "task": {"type": task_type, "index": task_index}}

    def to_tf_config_json(self, task_type: Optional[str] = None,
                          task_index: Optional[int] = None) -> str:
        return json.dumps(self.to_tf_config(task_type, task_index), separators=(",", ":"))

    @classmethod
    def from_tf_config(cls, tf_config: Union[str, Mapping[str, Any], None] = None) -> "Cluster":
        """Reads TF_CONFIG: JSON text, a dict, or (None) the environment variable.

        Raises:
          ClusterError: not valid JSON (with the position), no "cluster" key,
            a task that is not in the cluster, or any check of `Cluster`.
        """
        if tf_config is None:
            tf_config = os.environ.get("TF_CONFIG", "")
            if not tf_config.strip():
                raise ClusterError("TF_CONFIG is not set: run the script through "
                                   "`tf1compat launch`, or set TF_CONFIG to the cluster JSON")
        if isinstance(tf_config, (str, bytes)):
            try:
                document = json.loads(tf_config)
            except json.JSONDecodeError as error:
                shown = tf_config if len(tf_config) < 120 else tf_config[:117] + "..."
                raise ClusterError(f"TF_CONFIG is not valid JSON ({error.msg} at line "
                                   f"{error.lineno} column {error.colno}): received "
                                   f"{shown!r}") from None
        else:
            document = tf_config
        if not isinstance(document, Mapping) or "cluster" not in document:
            raise ClusterError(f"TF_CONFIG has no \"cluster\": received {document!r}; accepted: "
                               '{"cluster": {"worker": ["host:port", ...]}, '
                               '"task": {"type": "worker", "index": 0}}')
        task = document.get("task") or {}
        if not isinstance(task, Mapping):
            raise ClusterError(f"TF_CONFIG \"task\" must be an object: received {task!r}")
        index = task.get("index", 0 if task.get("type") else None)
        return cls(document["cluster"], task.get("type"), index)

    @classmethod
    def coerce(cls, cluster: Any = None, task_type: Optional[str] = None,
               task_index: Optional[int] = None) -> "Cluster":
        """A Cluster from a Cluster, ClusterSpec, dict, TF_CONFIG text, or (None) the environment."""
        if cluster is None or isinstance(cluster, (str, bytes)):
            found = cls.from_tf_config(cluster)
        elif isinstance(cluster, Cluster):
            found = cluster
        elif isinstance(cluster, Mapping) and "cluster" in cluster:
            found = cls.from_tf_config(cluster)
        else:
            found = cls(cluster)
        if task_type is not None:
            found = found.with_task(task_type, 0 if task_index is None else task_index)
        elif task_index is not None:
            raise ClusterError(f"task_index={task_index!r} given without a job name")
        return found


def local_cluster(workers: int, ps: int = 0, chief: bool = False, host: str = "127.0.0.1",
                  ports: Optional[Sequence[int]] = None) -> Cluster:
    """A cluster of tasks on one host, with the given ports (default: free ones).

    Ports are assigned in `Cluster.tasks()` order: chief, ps..., worker....
    """
    count = workers + ps + (1 if chief else 0)
    if workers < 0 or ps < 0 or count == 0:
        raise ClusterError(f"invalid task counts: received workers={workers}, ps={ps}, "
                           f"chief={chief}; accepted: at least one task")
    ports = list(ports) if ports is not None else free_ports(count, host)
    if len(ports) != count:
        raise ClusterError(f"{len(ports)} ports for {count} tasks: received {list(ports)}")
    shown = f"[{host}]" if ":" in host else host
    addresses = iter(f"{shown}:{port}" for port in ports)
    jobs: dict[str, list[str]] = {}
    if chief:
        jobs[CHIEF] = [next(addresses)]
    if ps:
        jobs[PS] = [next(addresses) for _ in range(ps)]
    if workers:
        jobs[WORKER] = [next(addresses) for _ in range(workers)]
    return Cluster(jobs)


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """`count` distinct ports that were free on `host` a moment ago.

    The sockets are held until all are chosen, so the ports differ; another
    program can still take one before the task binds it (the task then fails
    with "address already in use", and `launch` names it).
    """
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.bind((host, 0))
        return [sock.getsockname()[1] for sock in sockets]
    except OSError as error:
        raise ClusterError(f"cannot pick free ports on host {host!r} ({error.strerror}): "
                           "it must be an address of this machine") from None
    finally:
        for sock in sockets:
            sock.close()


def parse_hostfile(lines: Iterable[str], source: str = "hostfile") -> Cluster:
    """Reads `host:port job` lines (blank lines and # comments ignored) into a Cluster.

    Task indices follow the order of the lines within each job.

    Raises:
      ClusterError: naming the line that is malformed.
    """
    jobs: dict[str, list[str]] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise ClusterError(f"{source} line {number}: received {raw.rstrip()!r}; "
                               "accepted: 'host:port job' (e.g. '10.0.0.5:2222 worker')")
        address, job = parts
        check_address(address, f"address on {source} line {number}")
        jobs.setdefault(job, []).append(address)
    if not jobs:
        raise ClusterError(f"{source} names no task; accepted: one 'host:port job' per line")
    return Cluster(jobs)
