"""A real multi-node Slurm on this one machine: each node a network namespace with its own address.

    python tests/slurm/netns_cluster.py [--nodes 3]     (as root; Ctrl-C stops and removes it)

Made of, and removed in reverse order (also when a start fails half-way):

- a bridge `tf1c-br<k>` holding 10.213.<k>.1/24 (slurmctld's address), on the host;
- per node `n<i>`: a network namespace `tf1c-<k>-n<i>`, a veth pair from the bridge to its
  `eth0` at 10.213.<k>.<10+i>, its loopback, and `/etc/netns/tf1c-<k>-n<i>/hosts` naming every
  node and the controller, which the node's processes see as /etc/hosts (`in_node`);
- munged and slurmctld on the host, one slurmd per namespace (`slurmd -N n<i>`), each
  started and stopped by its pid. The munge socket is a file, so one munged serves all.

Every node has the same slurmd port on its own address, and tasks on different nodes the
same TensorFlow ports: only the namespaces keep them apart, as separate machines would. No
address outside 10.213.<k>.0/24 is used, and nothing leaves the machine (no route out of the
namespaces, no forwarding).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slurm_cluster import Cluster, _program, cluster_conf, free_port  # noqa: E402

NETNS_ETC = Path("/etc/netns")


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


class NetnsCluster(Cluster):
    """`Cluster` with `count` nodes, each in its own network namespace (see the module)."""

    def __init__(self, base: Path, count: int = 3, subnet_index: int = 213):
        super().__init__(base)
        self.k = os.getpid() % 200 + 20  # this run's bridge and namespaces: tf1c-br<k>
        self.subnet = f"10.{subnet_index}.{self.k}"
        self.nodes = [f"n{i}" for i in range(1, count + 1)]
        self.bridge = f"tf1c-br{self.k}"
        self.made: list[tuple[str, str]] = []  # (kind, name), undone in reverse

    @property
    def controller_address(self) -> str:
        """The bridge's address on the host: slurmctld's, and any service every node reaches
        (the tests' MiniDFS)."""
        return f"{self.subnet}.1"

    def namespace(self, node: str) -> str:
        return f"tf1c-{self.k}-{node}"

    def address(self, node: str) -> str:
        return f"{self.subnet}.{11 + self.nodes.index(node)}"

    def in_node(self, node: str, *command: str) -> list[str]:
        """`command` as run on `node`: in its network namespace, with its /etc/hosts bound
        over the machine's in a mount namespace of its own. (`ip netns exec` would also
        remount /sys, hiding the cgroup hierarchy slurmd reads.)"""
        hosts = NETNS_ETC / self.namespace(node) / "hosts"
        return ["nsenter", f"--net=/var/run/netns/{self.namespace(node)}", "unshare", "--mount",
                "--propagation", "private", "sh", "-c",
                f'mount --bind {hosts} /etc/hosts && exec "$@"', "sh", *command]

    def _make_network(self) -> None:
        _ip("link", "add", self.bridge, "type", "bridge")
        self.made.append(("link", self.bridge))
        _ip("addr", "add", f"{self.controller_address}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        hosts = "127.0.0.1 localhost\n" + f"{self.controller_address} {socket.gethostname()}\n" + "".join(
            f"{self.address(node)} {node}\n" for node in self.nodes)
        for index, node in enumerate(self.nodes, 1):
            namespace, veth = self.namespace(node), f"tf1c-{self.k}-v{index}"
            _ip("netns", "add", namespace)
            self.made.append(("netns", namespace))
            _ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            self.made.append(("link", veth))
            _ip("link", "set", veth, "master", self.bridge)
            _ip("link", "set", veth, "up")
            for args in (("addr", "add", f"{self.address(node)}/24", "dev", "eth0"),
                         ("link", "set", "eth0", "up"), ("link", "set", "lo", "up")):
                _ip("-n", namespace, *args)
            NETNS_ETC.mkdir(exist_ok=True)  # shared with any other namespaces: never removed
            etc = NETNS_ETC / namespace
            etc.mkdir()
            self.made.append(("etc", str(etc)))
            (etc / "hosts").write_text(hosts)

    def start(self, timeout: float) -> None:
        """Makes the network, starts the daemons, waits until every node is idle."""
        for folder in ("state", "spool"):
            (self.base / folder).mkdir()
        for node in self.nodes:
            (self.base / "spool" / node).mkdir()
        controller = f"{socket.gethostname().split('.')[0]}({self.controller_address})"
        self.conf.write_text(cluster_conf(
            self.base, "tf1compat-netns", controller,
            [(node, self.address(node)) for node in self.nodes], free_port(), free_port(),
            extra="# a lost node is down within seconds\nSlurmdTimeout=10\n"))
        try:
            self._make_network()
            self._start_munge()
            self.start_daemon("slurmctld", [_program("slurmctld"), "-D", "-c", "-f",
                                            str(self.conf)])
            for node in self.nodes:
                self._start_slurmd(node)
            self._wait(self.idle, timeout, f"nodes {','.join(self.nodes)} idle in sinfo")
        except BaseException:
            self.stop()
            raise

    def idle(self) -> bool:
        self.check_daemons()
        states = self.node_states()
        return all(states.get(node) == "idle" for node in self.nodes)

    def node_states(self) -> dict[str, str]:
        result = self.run("sinfo", "-h", "-N", "-o", "%N %T", timeout=10, check=False)
        return dict(line.split() for line in result.stdout.splitlines() if line.strip())


    def kill_node(self, node: str) -> None:
        """The node lost: its slurmd and every process in its namespace SIGKILLed, its link
        taken down."""
        process = self.processes.get(f"slurmd {node}")
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=15)
        self._kill_processes_in(node)
        _ip("-n", self.namespace(node), "link", "set", "eth0", "down")

    def _kill_processes_in(self, node: str) -> None:
        """SIGKILL to every process in the node's namespace."""
        pids = subprocess.run(["ip", "netns", "pids", self.namespace(node)], capture_output=True,
                              text=True).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass

    def _start_slurmd(self, node: str, log_mode: str = "w") -> None:
        self.start_daemon(f"slurmd {node}", self.in_node(
            node, _program("slurmd"), "-D", "-N", node, "-f", str(self.conf)), log_mode)

    def revive_node(self, node: str, timeout: float = 60) -> None:
        """The lost node back: its link up, a fresh slurmd; waits until Slurm has it idle."""
        _ip("-n", self.namespace(node), "link", "set", "eth0", "up")
        self._start_slurmd(node, log_mode="a")
        self._wait(lambda: self.node_states().get(node) == "idle", timeout, f"{node} idle again")

    def stop(self) -> None:
        """Stops the daemons (each by its pid), then removes what was made, in reverse."""
        if "slurmctld" in self.processes and self.processes["slurmctld"].poll() is None:
            self.cancel_jobs()
        self.stop_daemons([f"slurmd {node}" for node in self.nodes] + ["slurmctld", "munged"])
        for node in self.nodes:  # anything a task left in a namespace goes with it
            self._kill_processes_in(node)
        for kind, name in reversed(self.made):
            if kind == "etc":
                shutil.rmtree(name, ignore_errors=True)
                try:
                    NETNS_ETC.rmdir()  # only when no one else's namespace is left in it
                except OSError:
                    pass
            elif kind == "netns":
                subprocess.run(["ip", "netns", "del", name], capture_output=True)
            else:
                subprocess.run(["ip", "link", "del", name], capture_output=True)
        self.made.clear()


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="tf1compat-netns-slurm-"))
    cluster = NetnsCluster(base, args.nodes)
    try:
        cluster.start(60)
        print(f"Slurm with {args.nodes} nodes is up: export SLURM_CONF={cluster.conf}")
        for node in cluster.nodes:
            print(f"  {node} at {cluster.address(node)} (namespace {cluster.namespace(node)})")
        print("Ctrl-C stops it and removes the namespaces, links and files.", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
