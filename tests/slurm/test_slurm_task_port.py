"""A task of `launch --slurm` listens on its node's address only: its port is not reachable on
another interface of the node (no TensorFlow).

The task binds the wildcard address, as TensorFlow's gRPC server does (`[::]`, dual-stack).
The node's name (`vm` here) resolves to 127.0.0.1, so the other addresses tried are 127.0.0.2
(loopback too, but not the node's address) and every non-loopback IPv4 address of the node's
interfaces (eth0's, where there is one). With --bind-all the same port answers on all of them:
the check can fail.
"""

import fcntl
import socket
import struct

import pytest

from launch_helpers import finish, kill_group, kill_tasks, read_until, write_script
from slurm_helpers import RUN_MARK, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm]

SERVER = """
    import json, os, socket, sys, time
    port = int(json.loads(os.environ["TF_CONFIG"])["cluster"]["worker"][0].rsplit(":", 1)[1])
    server = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    server.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC's listeners do
    server.bind(("::", port))  # the wildcard, as TensorFlow's server binds it
    server.listen()
    print("listening on", port, flush=True)
    done = sys.argv[1]
    while not os.path.exists(done):
        time.sleep(0.05)
"""


def _interface_addresses() -> list[str]:
    """The IPv4 address of each interface of this machine that has one (SIOCGIFADDR)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(reply[20:24]))
    return found


def _free_port() -> int:
    """A port nothing on this machine holds on any address: a fixed one can be taken by
    whatever else runs here, and the test would then fail for a reason not its own."""
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        probe.bind(("::", 0))
        return probe.getsockname()[1]


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@pytest.mark.parametrize("bind_all", [False, True], ids=["confined", "bind-all"])
def test_a_tasks_port_answers_on_its_nodes_address_only(slurm_cluster, tmp_path, bind_all):
    node_address = socket.gethostbyname(slurm_cluster.node)
    another_loopback = "127.0.0.2" if node_address == "127.0.0.1" else "127.0.0.1"
    others = sorted({another_loopback, *_interface_addresses()} - {node_address})
    script = write_script(tmp_path, "server.py", SERVER)
    done = tmp_path / "done"
    env = launch_env(slurm_cluster)
    chosen = _free_port()
    process, lines = salloc_launch(
        slurm_cluster, 1, "--slurm", "--workers", "1", "--port-base", str(chosen),
        *(["--bind-all"] if bind_all else []), str(script), str(done), env=env), []
    try:
        port = int(read_until(process, r"\] listening on (\d+)$", 60, lines).group(1))
        assert port == chosen
        assert _answers(node_address, port)
        reached = [host for host in others if _answers(host, port)]
        done.touch()
        assert finish(process, 60, lines) == 0, "\n".join(lines)
    finally:
        done.touch()
        kill_group(process)
        kill_tasks(lines)
    assert others, "no other address to try"
    assert reached == (others if bind_all else []), (others, reached)
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(slurm_cluster.queue, 10) == []
