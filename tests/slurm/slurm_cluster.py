"""A real one-node Slurm cluster (munged, slurmctld, slurmd) in a temporary folder.

Everything lives under one folder: slurm.conf, the munge key and socket, the state and
spool folders, the logs. Nothing of the system's own Slurm or munge setup is read or
changed: every client the tests run gets `SLURM_CONF` pointing at this slurm.conf
(`Cluster.env`).

One node, named as this machine (slurmd finds its node by host name), with free ports for
slurmctld and slurmd. The node declares `CPUS` task slots whatever the machine has
(`SlurmdParameters=config_overrides`): a 2-core machine still runs a 1 ps + 2 worker
cluster (the tasks mostly wait on each other) without `--overcommit` on every command.

Two slurmd on one host do work with Debian's slurm-wlm 22.05 (`slurmd -N n1`, `slurmd -N n2`,
each node with its own Port and `NodeHostname` of this machine: `srun -N 2` ran one task on
each). The tests still run one node with several tasks: two such nodes share one address,
so the per-node port rule of `launch --slurm` (base + local rank) would give two tasks the
same port, and their names (n1, n2) resolve nowhere unless /etc/hosts is changed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Optional

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("srun", "salloc", "sbatch", "squeue", "sinfo", "scontrol", "scancel")
CPUS = 8  # task slots the node declares (see the module's docstring)
PARTITION = "tests"


def missing_programs() -> list[str]:
    """The Slurm and munge programs this machine lacks."""
    return [name for name in DAEMONS + CLIENTS
            if shutil.which(name) is None and not Path("/usr/sbin", name).exists()]


def _program(name: str) -> str:
    return shutil.which(name) or str(Path("/usr/sbin", name))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def slurm_conf(base: Path, node: str, ctld_port: int, slurmd_port: int) -> str:
    """One node, this machine, at 127.0.0.1."""
    return cluster_conf(base, "tf1compat-tests", f"{node}(127.0.0.1)", [(node, "127.0.0.1")],
                        ctld_port, slurmd_port)


def cluster_conf(base: Path, name: str, controller: str, nodes: list[tuple[str, str]],
                 ctld_port: int, slurmd_port: int, extra: str = "") -> str:
    """slurm.conf for `nodes` ((name, address) pairs); with several, each slurmd keeps its
    spool, pid and log files apart (`%n`: its node name)."""
    per_node = "-%n" if len(nodes) > 1 else ""
    node_lines = "\n".join(f"NodeName={node} NodeAddr={address} CPUs={CPUS} State=UNKNOWN"
                           for node, address in nodes)
    return f"""\
ClusterName={name}
SlurmctldHost={controller}
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={base}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={base}/state
SlurmdSpoolDir={base}/spool{"/%n" if per_node else ""}
SlurmctldPidFile={base}/slurmctld.pid
SlurmdPidFile={base}/slurmd{per_node}.pid
SlurmctldLogFile={base}/slurmctld.log
SlurmdLogFile={base}/slurmd{per_node}.log
# linuxproc follows each task's descendants without cgroups (containers, CI machines).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# A stopped step's tasks get SIGTERM, then SIGKILL this many seconds later.
KillWait=5
InactiveLimit=0
MinJobAge=2
{extra}{node_lines}
PartitionName={PARTITION} Nodes={",".join(node for node, _ in nodes)} Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
"""


class Cluster:
    """Started by `start()`, stopped (every daemon by its pid) by `stop()`."""

    def __init__(self, base: Path):
        self.base = base
        self.node = socket.gethostname()
        self.conf = base / "slurm.conf"
        self.processes: dict[str, subprocess.Popen] = {}

    @property
    def env(self) -> dict[str, str]:
        """The variables a Slurm client needs to talk to this cluster (and no other)."""
        return {"SLURM_CONF": str(self.conf)}

    def client_env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("SLURM_", "SALLOC_", "SBATCH_", "SRUN_"))}
        env.update(self.env)
        return env

    def run(self, *command: str, timeout: float = 30, check: bool = True
            ) -> subprocess.CompletedProcess:
        result = subprocess.run(list(command), capture_output=True, text=True,
                                env=self.client_env(), timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: "
                               f"{result.stderr.strip()}")
        return result

    def _start_munge(self) -> None:
        munge = self.base / "munge"
        munge.mkdir(mode=0o700)
        key = munge / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        self.processes["munged"] = subprocess.Popen(
            [_program("munged"), "--foreground", "--force", f"--socket={munge}/munge.socket",
             f"--key-file={key}", f"--pid-file={munge}/munged.pid",
             f"--log-file={munge}/munged.log", f"--seed-file={munge}/munged.seed"],
            stdout=subprocess.DEVNULL, stderr=open(munge / "munged.stderr", "w"),
            stdin=subprocess.DEVNULL, start_new_session=True)
        self._wait(lambda: (munge / "munge.socket").exists(), 20, "munged's socket")

    def start(self, timeout: float) -> None:
        """Starts the daemons and waits (at most `timeout` s) until the node is idle."""
        for folder in ("state", "spool"):
            (self.base / folder).mkdir()
        self.conf.write_text(slurm_conf(self.base, self.node, free_port(), free_port()))
        try:
            self._start_munge()
            # -D: in the foreground, so the pid we hold is the daemon's; -c: a clean state.
            self.start_daemon("slurmctld", [_program("slurmctld"), "-D", "-c", "-f",
                                            str(self.conf)])
            self.start_daemon("slurmd", [_program("slurmd"), "-D", "-f", str(self.conf)])
            self._wait(self.idle, timeout, f"node {self.node} idle in sinfo")
        except BaseException:
            self.stop()
            raise

    def start_daemon(self, name: str, command: list[str], log_mode: str = "w") -> None:
        """Starts `command` as the daemon `name`, its stderr in <name>.stderr (spaces -> -)."""
        stderr = self.base / f"{name.replace(' ', '-')}.stderr"
        self.processes[name] = subprocess.Popen(
            command, env=self.client_env(), stdout=subprocess.DEVNULL,
            stderr=open(stderr, log_mode), stdin=subprocess.DEVNULL, start_new_session=True)

    def check_daemons(self) -> None:
        """Raises, with the logs, when a daemon has exited while the cluster starts."""
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited {process.returncode} while starting; "
                                   f"logs: {self.base}\n{self.logs()}")

    def idle(self) -> bool:
        self.check_daemons()
        result = self.run("sinfo", "-h", "-N", "-o", "%T", timeout=10, check=False)
        return result.returncode == 0 and result.stdout.strip() == "idle"

    def _wait(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the test Slurm did not get to {what} within "
                                   f"{timeout:.0f} s; logs: {self.base}\n{self.logs()}")
            time.sleep(0.2)

    def logs(self) -> str:
        parts = []
        for path in sorted(self.base.rglob("*.log")) + sorted(self.base.rglob("*.stderr")):
            text = path.read_text(errors="replace").strip().splitlines()[-15:]
            if text:
                parts.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(parts)

    def queue(self) -> list[str]:
        """The job ids squeue lists (empty when every job has ended)."""
        return self.run("squeue", "-h", "-o", "%i").stdout.split()

    def cancel_jobs(self) -> None:
        """Cancels every job still queued or running (the cluster is the tests' own)."""
        self.run("scancel", "--full", "--partition", PARTITION, timeout=10, check=False)

    def stop(self) -> None:
        """Cancels what is left, then stops slurmd, slurmctld and munged, each by its pid."""
        if "slurmctld" in self.processes and self.processes["slurmctld"].poll() is None:
            self.cancel_jobs()
        self.stop_daemons(("slurmd", "slurmctld", "munged"))

    def stop_daemons(self, names) -> None:
        """SIGTERM to each named daemon still running, in order; SIGKILL after 15 s."""
        for name in names:
            process: Optional[subprocess.Popen] = self.processes.get(name)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)
