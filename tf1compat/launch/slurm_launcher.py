"""`tf1compat launch --slurm`: every task of a cluster as one srun step, supervised.

One `srun --ntasks=N --distribution=block --kill-on-bad-exit=1` starts
`tf1compat.launch.slurm_task` on every rank; each works out its own task and the whole
cluster (`slurm_layout`), runs the script and reports on stderr in JSON lines
(`tf1compat.process.events`). This side reads those reports and srun's own errors, writes
each report as a line for people, and decides when the run is over, as local launch does:

- when the tasks that end the run (`launcher.default_main_jobs`: the chief with ps tasks,
  else every chief and worker) have all exited 0, srun gets SIGTERM, which it forwards to
  every task (ps servers never return on their own); the run succeeds;
- when a task fails (non-zero exit, a signal, or srun reports it lost), the rest are
  stopped and the result names the task, its rank, its node and how it ended;
- SIGINT/SIGTERM here stop the step the same way.

srun runs in its own session: a Ctrl-C at the terminal reaches this process only (srun
takes one SIGINT as "print the tasks' states", not "stop"). If srun does not end `grace`
seconds after SIGTERM, the step is cancelled (`scancel JOB.STEP`) and srun killed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional, Sequence, TextIO

import tf1compat
from tf1compat.launch.last_error import LastErrors
from tf1compat.launch.attempts import LaunchResult, run_with_restarts
from tf1compat.launch.launcher import default_main_jobs
from tf1compat.launch.slurm_task import ENV_PLAN
from tf1compat.process import events
from tf1compat.process.handlers import handling
from tf1compat.process.lifetime import die_with_parent
from tf1compat.shared.errors import LaunchError
from tf1compat.shared.slurm_layout import EVALUATOR, describe_layout, step_cluster

NOTE = "tf1compat launch: "
# What each kind of task report holds (`slurm_task.report`); a line that does not is output.
REPORT_FIELDS = {"started": {"task", "pid", "address", "rank", "node", "step"},
                 "ended": {"task", "rank", "node", "outcome", "how", "status"},
                 "cannot_start": {"rank", "node", "why"}}
# srun's own report of a task it lost: "srun: error: node3: task 2: Killed"
SRUN_LOST = re.compile(r"^srun: error: (\S+): tasks? ([\d,-]+): (.*)$")
# srun's report of a node of the step lost as a whole: "srun: error: Node failure on node2"
SRUN_NODE_FAILURE = re.compile(r"^srun: error: Node failure on (\S+)$")
# The allocation's size as it began, which a step after a lost node must not be held to.
STALE_AFTER_NODE_LOSS = ("SLURM_JOB_NUM_NODES", "SLURM_NNODES", "SLURM_JOB_NODELIST",
                         "SLURM_NODELIST", "SLURM_TASKS_PER_NODE", "SLURM_NPROCS",
                         "SLURM_NTASKS", "SLURM_JOB_CPUS_PER_NODE")
SRUN_OWN = re.compile(r"^(srun: |slurmstepd(-\S+)?: )")


def _srun_status(how: str) -> int:
    """The shell-style status srun's words for a lost task stand for ("Killed", "Exited with
    exit code 3"); 1 when they name none."""
    match = re.search(r"exit code (\d+)", how)
    if match:
        return int(match.group(1)) or 1
    match = re.search(r"killed by (SIG[A-Z0-9]+)", how)
    if match and match.group(1) in signal.Signals.__members__:
        return 128 + signal.Signals[match.group(1)].value
    if "Killed" in how:
        return 128 + signal.SIGKILL
    return 1


def _ranks(text: str) -> list[int]:
    ranks = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        ranks += list(range(int(first), int(last or first) + 1))
    return ranks


class SlurmLauncher:
    """Runs `command` as every task of `tasks` (rank order) in one srun step per attempt
    (`tf1compat.launch.attempts`: the interface local launch has too)."""

    def __init__(self, tasks: Sequence[tuple[str, int]], command: Sequence[str], *,
                 srun_args: Sequence[str] = (), tf1_flags: bool = False, bind: str = "task",
                 keras_fix: bool = True, port_base: Optional[int] = None, grace: float = 10.0,
                 main_jobs: Optional[Sequence[str]] = None, out: Optional[TextIO] = None,
                 err: Optional[TextIO] = None, max_restarts: int = 0):
        self.tasks = [tuple(task) for task in tasks]
        self.plan = {"layout": self.tasks, "command": list(command), "tf1_flags": tf1_flags,
                     "bind": bind, "keras_fix": keras_fix, "port_base": port_base,
                     "grace": grace}
        self.srun_args = list(srun_args)
        self.grace = grace
        self.max_restarts = max_restarts
        self.attempt = 1  # the tasks read it as TF1COMPAT_LAUNCH_ATTEMPT, as under local
        self.lost_nodes: list[str] = []  # nodes an earlier attempt lost: left out
        if main_jobs:
            self.main_jobs = tuple(main_jobs)
        else:  # the rule of local launch, on the same jobs (the hosts do not matter to it)
            cluster, _ = step_cluster(self.tasks, ["h"] * len(self.tasks), 1)
            self.main_jobs = default_main_jobs(cluster) + \
                ((EVALUATOR,) if (EVALUATOR, 0) in self.tasks else ())
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._new_attempt()

    def _new_attempt(self) -> None:
        """What one srun step learns, empty again."""
        self.started: dict[str, tuple[int, str]] = {}   # task -> (rank, node)
        self.ended: dict[str, tuple[str, str]] = {}     # task -> (outcome, how)
        self.failures: list[tuple[str, int]] = []  # (what failed, the exit status it gives)
        self.lost: list[str] = []  # nodes srun reported failed
        self.step: Optional[str] = None
        self._stop_signal: Optional[int] = None
        self._readers: list[threading.Thread] = []
        self._ended_well = False
        self.last_errors = LastErrors()

    def note(self, text: str) -> None:
        with self._lock:
            self.err.write(f"{NOTE}{text}\n")
            self.err.flush()

    def srun_command(self) -> list[str]:
        srun = shutil.which("srun")
        if srun is None:
            raise LaunchError("--slurm needs Slurm's srun on PATH (run on a login or compute "
                              "node of the cluster)")
        # After a lost node, the failed step can hold its CPUs until Slurm has given up on
        # that node: the next step may share them (--overlap) and leaves the node out.
        retry = [f"--exclude={','.join(self.lost_nodes)}", "--overlap"] if self.lost_nodes \
            else []
        return [srun, f"--ntasks={len(self.tasks)}", "--distribution=block",
                "--kill-on-bad-exit=1", "--job-name=tf1compat-launch", *retry, *self.srun_args,
                sys.executable, "-u", "-m", "tf1compat.launch.slurm_task"]

    def srun_env(self) -> dict:
        import json

        env = dict(os.environ)
        env[ENV_PLAN] = json.dumps(self.plan, separators=(",", ":"))
        # Every rank imports this very tf1compat (a shared file system is assumed, as for
        # the script): its folder first on the tasks' PYTHONPATH.
        root = str(Path(tf1compat.__file__).resolve().parent.parent)
        paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]
        env["PYTHONPATH"] = os.pathsep.join([root, *paths])
        env["PYTHONUNBUFFERED"] = "1"
        env["TF1COMPAT_LAUNCH_ATTEMPT"] = str(self.attempt)
        if self.attempt > 1:
            # The allocation may have lost a node (salloc/sbatch --no-kill): its size as the
            # job started would contradict what is left, and srun refuses the step.
            for name in STALE_AFTER_NODE_LOSS:
                env.pop(name, None)
        return env

    # -- reading srun's output -------------------------------------------------------

    def _name_of_rank(self, rank: int) -> str:
        job, index = self.tasks[rank] if 0 <= rank < len(self.tasks) else ("rank", rank)
        return f"{job}:{index}"

    def _read(self, stream, sink: TextIO, parse: bool) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            report = events.decode(line) if parse else None
            if report is not None and not REPORT_FIELDS.get(report["event"], {""}) <= \
                    report.keys():
                report = None  # not a report this launcher knows: shown as it came
            if report is not None:
                line = self._told(report)
            else:
                self.last_errors.see_prefixed(line)
            with self._changed:
                # srun's own account of the stop launch asked for after a successful run
                # ("forcing job termination", "tasks 0,2: Killed") would read as a failure.
                if line is not None and not (parse and self._ended_well and
                                             SRUN_OWN.match(line)):
                    sink.write(f"{line}\n")
                    sink.flush()
                if report is not None:
                    self._record(report)
                elif parse:
                    self._parse_srun(line)
                self._changed.notify_all()
        stream.close()

    @staticmethod
    def _told(report: dict) -> str:
        """A task's report (of a kind in REPORT_FIELDS) as the line people read."""
        kind = report["event"]
        if kind == "started":
            return (f"{NOTE}started {report['task']} pid {report['pid']} at "
                    f"{report['address']} (rank {report['rank']} on node {report['node']}, "
                    f"step {report['step']})")
        if kind == "ended":
            return (f"{NOTE}{report['task']} (rank {report['rank']} on node "
                    f"{report['node']}) {report['outcome']}: {report['how']}")
        return f"{NOTE}rank {report['rank']} on node {report['node']} cannot start: " \
            f"{report['why']}"

    def _record(self, report: dict) -> None:
        kind = report["event"]
        if kind == "started":
            self.started[report["task"]] = (int(report["rank"]), report["node"])
            self.step = report["step"]
        elif kind == "ended":
            name, outcome, how = report["task"], report["outcome"], report["how"]
            self.ended[name] = (outcome, how)
            if outcome == "failed":
                self.failures.append((f"task {name} (rank {report['rank']} on node "
                                      f"{report['node']}) failed: {how}"
                                      + self.last_errors.after(name),
                                      int(report["status"]) or 1))
        else:
            rank = int(report["rank"])
            name = self._name_of_rank(rank)
            # The task's own account comes first, whenever it arrives: srun's "Exited with
            # exit code 2" for the same task, read on the other stream, may have come before.
            self.failures[:] = [failure for failure in self.failures
                                if not (failure[0].startswith(f"task {name} (")
                                        and failure[0].endswith("(reported by srun)"))]
            self.failures.insert(0, (f"task {name} (rank {rank} on node {report['node']}) "
                                     f"cannot start: {report['why']}", 1))

    def _parse_srun(self, line: str) -> None:
        """What srun itself says about the step's tasks and nodes (its own words: srun has
        no other way to tell)."""
        match = SRUN_NODE_FAILURE.match(line)
        if match:
            self.lost.append(match.group(1))
        if match and self._stop_signal is None and not self._done():
            node = match.group(1)
            lost = [name for name, (_, where) in self.started.items() if where == node]
            for name in lost:
                self.ended.setdefault(name, ("failed", f"node {node} failed"))
            self.failures.insert(0, (f"task {', '.join(lost) or '?'} on node {node} lost: the "
                                     "node failed (reported by srun)", 1))
            return
        match = SRUN_LOST.match(line)
        if match:
            node, ranks, how = match.groups()
            for rank in _ranks(ranks):
                name = self._name_of_rank(rank)
                if name not in self.ended and self._stop_signal is None and not self._done():
                    self.ended[name] = ("failed", how)
                    self.failures.append((f"task {name} (rank {rank} on node {node}) failed: "
                                          f"{how} (reported by srun)", _srun_status(how)))

    def _done(self) -> bool:
        main = [f"{job}:{index}" for job, index in self.tasks if job in self.main_jobs]
        return bool(main) and all(self.ended.get(name, ("",))[0] == "finished" for name in main)

    # -- stopping ---------------------------------------------------------------------

    def _stop(self, srun: subprocess.Popen) -> None:
        # SIGTERM to every task of the step first (each stops its script's process group
        # and exits, then srun does): srun's own reaction to SIGTERM is SIGKILL to the step.
        if srun.poll() is None and self.step and shutil.which("scancel"):
            subprocess.run(["scancel", "--signal=TERM", self.step], capture_output=True,
                           timeout=60)
            try:
                srun.wait(timeout=self.grace + 5)
                return
            except subprocess.TimeoutExpired:
                pass
        if srun.poll() is None:
            srun.send_signal(signal.SIGTERM)
        try:
            srun.wait(timeout=self.grace + 5)
            return
        except subprocess.TimeoutExpired:
            pass
        if self.step and shutil.which("scancel"):
            subprocess.run(["scancel", "--signal=KILL", self.step], capture_output=True,
                           timeout=60)
        try:
            srun.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srun.kill()
            srun.wait()

    def _on_signal(self, signum, frame) -> None:
        # No lock here: the handler runs in the main thread, which may hold it; the
        # supervising loop wakes within 0.2 s anyway.
        self._stop_signal = signum

    # -- running ----------------------------------------------------------------------

    def run(self) -> LaunchResult:
        """Runs the step, and a new one after a failure up to `max_restarts` times, on the
        nodes the allocation still has."""
        return run_with_restarts(self)

    def restart_detail(self) -> str:
        return f", leaving out the lost node(s) {', '.join(self.lost_nodes)}" \
            if self.lost_nodes else ""

    def run_attempt(self, attempt: int) -> LaunchResult:
        """One srun step of every task; the nodes it lost are left out of the next."""
        self.attempt = attempt
        self._new_attempt()
        try:
            return self._run_step()
        finally:
            self.lost_nodes += [node for node in self.lost if node not in self.lost_nodes]

    def _run_step(self) -> LaunchResult:
        command, env = self.srun_command(), self.srun_env()
        self.note(f"srun step of {len(self.tasks)} tasks ({describe_layout(self.tasks)}): "
                  + " ".join(command))
        with handling((signal.SIGINT, signal.SIGTERM), self._on_signal):
            srun = subprocess.Popen(die_with_parent(command, env), env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            self._readers = [
                threading.Thread(target=self._read, args=(srun.stdout, self.out, False),
                                 daemon=True),
                threading.Thread(target=self._read, args=(srun.stderr, self.err, True),
                                 daemon=True)]
            for reader in self._readers:
                reader.start()
            try:
                return self._supervise(srun)
            finally:
                self._stop(srun)
                for reader in self._readers:
                    reader.join(timeout=5)

    def _supervise(self, srun: subprocess.Popen) -> LaunchResult:
        while True:
            with self._changed:
                self._changed.wait(timeout=0.2)
                failures, done = list(self.failures), self._done()
            if self._stop_signal is not None:
                name = signal.Signals(self._stop_signal).name
                self.note(f"received {name}: stopping every task")
                return LaunchResult(128 + self._stop_signal, interrupted=True,
                                    message=f"interrupted by {name}")
            if failures:
                failure, status = failures[0]
                self.note(f"{failure}; stopping the other tasks")
                return LaunchResult(status, failure.split()[1], message=failure)
            if done:
                with self._lock:
                    self._ended_well = True
                rest = [name for name in self.started if name not in self.ended]
                if rest:
                    main = [name for name in self.ended if name.split(":")[0] in self.main_jobs]
                    self.note(f"{', '.join(main)} finished; stopping {', '.join(rest)}")
                return LaunchResult(0, message="every task finished")
            if srun.poll() is not None:
                for reader in self._readers:  # srun's last lines may say what ended
                    reader.join(timeout=5)
                with self._lock:
                    if self.failures or self._done():
                        continue
                code = srun.returncode
                stopped = [name for name, (outcome, _) in self.ended.items()
                           if outcome == "stopped"]
                if stopped:  # SIGTERM that launch did not send: scancel, or salloc ending
                    message = (f"{', '.join(stopped)} stopped from outside launch (the job "
                               "was cancelled, or its allocation ended)")
                else:
                    message = (f"srun exited {code} before every task had finished "
                               f"(started: {', '.join(self.started) or 'none'}); see srun's "
                               "message above")
                return LaunchResult(code or 1, message=message)
