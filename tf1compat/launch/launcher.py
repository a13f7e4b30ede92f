"""Starts one process per task of a cluster, supervises them, and stops them all.

`tf1compat launch` is a thin command line over `Launcher`. What it promises:

- every task gets its TF_CONFIG (and, with `tf1_flags`, TF1's
  `--job_name/--task_index/--ps_hosts/--worker_hosts` flags);
- every line a task prints is prefixed with its name (`[worker:1] ...`);
- when one task fails (non-zero exit, or killed by a signal) every other task
  is stopped, and the result names the task and its exit code;
- Ctrl-C (SIGINT) or SIGTERM stops every task and its children (each task runs
  in its own process group): no process is left behind; on Linux a task is
  also killed if launch itself dies (PR_SET_PDEATHSIG, `tf1compat.process.lifetime`);
- with `max_restarts`, a failed run is stopped and started again (all tasks,
  new free ports): training scripts that back up (`modern.fault_tolerance`)
  resume from their last backup;
- each task's servers are confined to its host (see `tf1compat.launch.bindhost`).

Which tasks decide that the run is over: by default the chief when the
cluster has a chief and ps tasks (ParameterServerStrategy: ps and workers
only serve), else every chief and worker task. Once they have all exited 0,
the remaining tasks (servers that never return) are stopped and the run
succeeds.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Callable, Optional, Sequence, TextIO

from tf1compat.launch.attempts import LaunchResult, run_with_restarts
from tf1compat.launch.last_error import LastErrors
from tf1compat.process.exits import describe_exit, exit_status
from tf1compat.process.groups import stop_processes
from tf1compat.process.handlers import handling
from tf1compat.process.lifetime import die_with_parent
from tf1compat.process.lines import forwarding_threads
from tf1compat.process.ports import port_listened_on
from tf1compat.shared.cluster_spec import CHIEF, EVALUATOR, PS, WORKER, Cluster, split_address
from tf1compat.shared.errors import LaunchError


def default_main_jobs(cluster: Cluster) -> tuple[str, ...]:
    if cluster.addresses(CHIEF) and cluster.addresses(PS):
        return (CHIEF,)
    return tuple(job for job in (CHIEF, WORKER) if cluster.addresses(job)) or \
        tuple(cluster.job_names)


def evaluator_tf_config_json(cluster: Cluster, index: int) -> str:
    """An evaluator's TF_CONFIG: the training cluster, and a task that is not part of it.

    TF1's `tf.estimator.train_and_evaluate` reads it so: the evaluator starts
    no server and only reads the checkpoints the chief writes.
    """
    import json

    return json.dumps({"cluster": cluster.as_dict(), "task": {"type": EVALUATOR, "index": index}},
                      separators=(",", ":"))


def tf1_flags(cluster: Cluster, task_type: str, task_index: int) -> list[str]:
    """The flags of TF1's distributed examples: --job_name, --task_index, --<job>_hosts."""
    flags = [f"--job_name={task_type}", f"--task_index={task_index}"]
    flags += [f"--{job}_hosts={','.join(cluster.addresses(job))}" for job in cluster.job_names]
    return flags


def task_environment(base: dict, cluster: Cluster, job: str, index: int, attempt: int,
                     keras_fix: bool, bind_host: Optional[str]) -> dict:
    """A task's environment: `base` plus its TF_CONFIG, its name, the task fixes and (with
    `bind_host`) the shim that confines its servers to that host. Local and Slurm tasks
    (`tf1compat.launch.slurm_task`) get theirs from here."""
    env = dict(base)
    if job == EVALUATOR and job not in cluster.job_names:
        env["TF_CONFIG"] = evaluator_tf_config_json(cluster, index)
    else:
        env["TF_CONFIG"] = cluster.to_tf_config_json(job, index)
    env["TF1COMPAT_TASK"] = f"{job}:{index}"
    env["TF1COMPAT_LAUNCH_ATTEMPT"] = str(attempt)
    env["PYTHONUNBUFFERED"] = "1"
    from tf1compat.launch import task_fixes

    env.update(task_fixes.environment(env, keras_fix))
    if bind_host is not None:
        from tf1compat.launch import bindhost

        env.update(bindhost.environment(bind_host, env))
    return env


@dataclasses.dataclass
class Task:
    name: str
    task_type: str
    task_index: int
    address: str
    process: subprocess.Popen
    threads: list

    @property
    def pid(self) -> int:
        return self.process.pid


class Launcher:
    """Runs `command` once per task of a cluster and supervises the processes.

    Args:
      cluster_factory: called once per attempt; returns the Cluster (so a
        restart can take new free ports).
      command: the program and its arguments, e.g. [python, -u, train.py, ...].
      tasks: which (job, index) to run here (default: all of them).
      main_jobs: jobs whose success ends the run (default: `default_main_jobs`).
      tf1_flags: append TF1's job/task flags to each task's command.
      bind: "task" to confine each task's listening sockets to its own host
        (`tf1compat.launch.bindhost`), or "all" to leave TensorFlow's default (every
        interface).
      bind_host: with bind="task", the address to confine them to instead of the task's
        host in the cluster (a Kubernetes pod's own IP: its name there is a service's).
      grace: seconds between the polite stop (SIGINT/SIGTERM) and SIGKILL.
      max_restarts: how many times a failed run is started again.
      evaluators: how many evaluator tasks to add outside the cluster
        (`evaluator_tf_config_json`); by default the run then also waits for them.
      keras_fix: put the Keras multi-worker fix into every task
        (`tf1compat.launch.task_fixes`).
      out, err: where prefixed output goes (default: sys.stdout / sys.stderr).
    """

    def __init__(self, cluster_factory: Callable[[], Cluster], command: Sequence[str], *,
                 tasks: Optional[Sequence[tuple[str, int]]] = None,
                 main_jobs: Optional[Sequence[str]] = None, tf1_flags: bool = False,
                 bind: str = "task", grace: float = 10.0, max_restarts: int = 0,
                 env: Optional[dict] = None, out: Optional[TextIO] = None,
                 err: Optional[TextIO] = None, keras_fix: bool = True, evaluators: int = 0,
                 bind_host: Optional[str] = None):
        self.cluster_factory = cluster_factory
        self.command = list(command)
        self.only_tasks = list(tasks) if tasks is not None else None
        self.main_jobs = tuple(main_jobs) if main_jobs else None
        self.tf1_flags = tf1_flags
        self.bind = bind
        self.bind_host = bind_host
        self.grace = grace
        self.max_restarts = max_restarts
        self.keras_fix = keras_fix
        self.evaluators = evaluators
        self.env = dict(os.environ if env is None else env)
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.tasks: list[Task] = []
        self._stop_signal: Optional[int] = None
        self._write_lock = threading.Lock()
        self.last_errors = LastErrors()

    # -- output ---------------------------------------------------------------

    def note(self, text: str) -> None:
        with self._write_lock:
            self._write_note(text)

    def _write_note(self, text: str) -> None:
        """`note`, for a caller that holds the write lock."""
        self.err.write(f"tf1compat launch: {text}\n")
        self.err.flush()

    # -- starting -------------------------------------------------------------

    def check_ports(self, cluster: Cluster, tasks: Sequence[tuple[str, int]]) -> None:
        """Raises LaunchError naming each task whose host:port is already taken here."""
        taken = []
        for job, index in tasks:
            if index >= cluster.num_tasks(job):  # an evaluator outside the cluster: no server
                continue
            address = cluster.addresses(job)[index]
            # None: not an address of this machine, nothing to check here
            if port_listened_on(*split_address(address)):
                taken.append(f"{address} ({job}:{index})")
        if taken:
            raise LaunchError(f"port already in use: {', '.join(taken)}; stop what holds it, "
                              "or let launch choose free ports (omit --ports)")

    def _host(self, cluster: Cluster, job: str, index: int) -> str:
        """The task's host; an evaluator outside the cluster has the first task's host."""
        if job == EVALUATOR and job not in cluster.job_names:
            return split_address(cluster.addresses(cluster.job_names[0])[0])[0]
        return split_address(cluster.addresses(job)[index])[0]

    def _address(self, cluster: Cluster, job: str, index: int) -> str:
        if job == EVALUATOR and job not in cluster.job_names:
            return f"{self._host(cluster, job, index)} (no server)"
        return cluster.addresses(job)[index]

    def _task_env(self, cluster: Cluster, job: str, index: int, attempt: int) -> dict:
        host = (self.bind_host or self._host(cluster, job, index)) if self.bind == "task" \
            else None
        return task_environment(self.env, cluster, job, index, attempt, self.keras_fix, host)

    def _start(self, cluster: Cluster, attempt: int) -> None:
        tasks = self.only_tasks if self.only_tasks is not None else cluster.tasks()
        self.check_ports(cluster, tasks)
        if self.only_tasks is None:
            tasks = list(tasks) + [(EVALUATOR, index) for index in range(self.evaluators)]
        for job, index in tasks:
            command = list(self.command)
            if self.tf1_flags:
                command += tf1_flags(cluster, job, index)
            env = self._task_env(cluster, job, index, attempt)
            # Output-forwarding threads already run: Popen starts the session, and the exec
            # wrapper the parent-death signal, with no Python code between fork and exec.
            process = subprocess.Popen(die_with_parent(command, env), env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
            name = f"{job}:{index}"
            threads = forwarding_threads(process, f"[{name}] ", self.out, self.err,
                                         self._write_lock,
                                         functools.partial(self.last_errors.see, name))
            address = self._address(cluster, job, index)
            self.tasks.append(Task(name, job, index, address, process, threads))
            with self._write_lock:  # the task's first lines wait for the line saying it started
                for thread in threads:
                    thread.start()
                self._write_note(f"started {name} pid {process.pid} at {address}")

    # -- stopping ---------------------------------------------------------------

    def stop_all(self, first_signal: int = signal.SIGTERM) -> None:
        """Stops every task and its process group: `first_signal`, then SIGKILL after `grace`."""
        stop_processes([task.process for task in self.tasks], first_signal, self.grace)
        for task in self.tasks:
            for thread in task.threads:
                thread.join(timeout=2)

    def _on_signal(self, signum, frame) -> None:
        self._stop_signal = signum

    # -- supervising --------------------------------------------------------------

    def _watch(self, main_jobs: Sequence[str]) -> LaunchResult:
        main = [t for t in self.tasks if t.task_type in main_jobs] or list(self.tasks)
        while True:
            if self._stop_signal is not None:
                sig = self._stop_signal
                self.note(f"received {signal.Signals(sig).name}: stopping every task")
                self.stop_all(signal.SIGINT if sig == signal.SIGINT else signal.SIGTERM)
                return LaunchResult(128 + sig, interrupted=True,
                                    message=f"interrupted by {signal.Signals(sig).name}")
            for task in self.tasks:
                code = task.process.poll()
                if code is not None and code != 0:
                    for thread in task.threads:  # its last lines, the traceback's end
                        thread.join(timeout=2)
                    how = describe_exit(code) + self.last_errors.after(task.name)
                    self.note(f"{task.name} (pid {task.pid}) failed: {how}; "
                              "stopping the other tasks")
                    self.stop_all()
                    return LaunchResult(exit_status(code) or 1, task.name, code,
                                        message=f"task {task.name} failed: {how}")
            if all(task.process.poll() == 0 for task in main):
                rest = [t.name for t in self.tasks if t.process.poll() is None]
                if rest:
                    self.note(f"{', '.join(t.name for t in main)} finished; stopping "
                              f"{', '.join(rest)}")
                self.stop_all()
                return LaunchResult(0, message="every task finished")
            time.sleep(0.05)

    def run(self) -> LaunchResult:
        """Starts the tasks and supervises them until the run ends, starting a failed run
        again up to `max_restarts` times; returns the result."""
        with handling((signal.SIGINT, signal.SIGTERM), self._on_signal):
            return run_with_restarts(self)

    def run_attempt(self, attempt: int) -> LaunchResult:
        """Starts every task (new free ports each attempt) and supervises them to the end."""
        cluster = self.cluster_factory()
        self.tasks = []
        try:
            self._start(cluster, attempt)
            main_jobs = self.main_jobs or default_main_jobs(cluster) + \
                ((EVALUATOR,) if self.evaluators else ())
            return self._watch(main_jobs)
        except BaseException:
            self.stop_all()
            raise

    def restart_detail(self) -> str:
        return ""
