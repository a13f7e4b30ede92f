"""Keeps a task's TensorFlow servers on the host it was given, not on every interface.

TensorFlow's gRPC server (`tf.distribute.Server`, and the servers that
MultiWorkerMirroredStrategy and ParameterServerStrategy start) always listens
on the wildcard address, `0.0.0.0:port` / `[::]:port`, whatever host the
cluster names; TensorFlow has no option for it. Those servers have no
authentication: whoever reaches the port can run ops in the process.

`tf1compat launch` therefore starts each task with a small preloaded library
(`bindhost.c`, compiled on first use with the system C compiler and cached)
that turns a bind to the wildcard address into a bind to the task's host.
Linux only; elsewhere, or without a C compiler, launch refuses to start
unless `--bind-all` accepts every interface.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import platform
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Mapping, Optional

from tf1compat.shared.cache import cache_dir
from tf1compat.shared.errors import LaunchError

SOURCE = Path(__file__).with_name("bindhost.c")
ENV_HOST = "TF1COMPAT_BIND_HOST"
# A one-file shim compiles in well under a second; a compiler hanging (a wrapper waiting
# on a licence server or a lock) must not hang `launch` with it.
COMPILE_TIMEOUT_SECONDS = 120


def library(build: bool = True) -> Path:
    """The compiled shim (built and cached on first use).

    Raises:
      LaunchError: not Linux, no C compiler, or the build failed.
    """
    if platform.system() != "Linux":
        raise LaunchError(f"cannot confine servers to their host on {platform.system()} "
                          "(LD_PRELOAD is Linux-only); pass --bind-all to let TensorFlow "
                          "listen on every interface")
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source + platform.machine().encode()).hexdigest()[:16]
    target = cache_dir() / f"bindhost-{digest}.so"
    if target.exists() or not build:
        return target
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") \
        or shutil.which("clang")
    if not compiler:
        raise LaunchError("cannot confine servers to their host: no C compiler (cc) to build "
                          f"{SOURCE.name}; install one, or pass --bind-all to let TensorFlow "
                          "listen on every interface")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        built = Path(scratch) / target.name
        command = [compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(SOURCE), "-ldl"]
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=COMPILE_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            raise LaunchError(f"cannot build {SOURCE.name}: {compiler} did not finish within "
                              f"{COMPILE_TIMEOUT_SECONDS} s; set CC to a working C compiler, "
                              "or pass --bind-all to let TensorFlow listen on every "
                              "interface") from None
        except OSError as error:  # CC names no program, or one that cannot run
            raise LaunchError(f"cannot build {SOURCE.name}: the C compiler {compiler!r} "
                              f"cannot be run ({error.strerror}); set CC to a C compiler, "
                              "or pass --bind-all to let TensorFlow listen on every "
                              "interface") from None
        if result.returncode != 0:
            raise LaunchError(f"cannot build {SOURCE.name} with {compiler}: "
                              f"{result.stderr.strip().splitlines()[-1:] or result.returncode}; "
                              "pass --bind-all to let TensorFlow listen on every interface")
        os.replace(built, target)  # atomic: parallel launches may build it at once
    return target


def numeric_host(host: str) -> str:
    """The IP literal for a host name (the shim compares literals)."""
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        pass
    try:
        return socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)[0][4][0]
    except socket.gaierror as error:
        raise LaunchError(f"cannot resolve host {host!r}: {error}") from None


def environment(host: str, env: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """The variables that confine a child's listening sockets to `host`."""
    literal = numeric_host(host)
    if ipaddress.ip_address(literal).is_unspecified:
        return {}  # 0.0.0.0 / :: asked for: nothing to confine
    preload = str(library())
    existing = (env or os.environ).get("LD_PRELOAD", "")
    return {ENV_HOST: literal,
            "LD_PRELOAD": f"{preload} {existing}".strip() if existing else preload}


def listening_addresses(port: int, pid: Optional[int] = None) -> list[str]:
    """Where something listens on `port` on this machine (from /proc/net/tcp*), e.g.
    ['127.0.0.1']; with `pid`, only the sockets that process holds (another process may listen
    on the same port number at another address of the machine)."""
    owned = _socket_inodes(pid) if pid is not None else None
    found = []
    for name, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            address, port_hex = local.split(":")
            if state != "0A" or int(port_hex, 16) != port:  # 0A = LISTEN
                continue
            if owned is not None and inode not in owned:
                continue
            raw = bytes.fromhex(address)
            if width == 8:
                found.append(socket.inet_ntop(socket.AF_INET, raw[::-1]))
            else:
                words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                found.append(socket.inet_ntop(socket.AF_INET6, words))
    return found


def _socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process `pid` holds open ('socket:[INODE]' links)."""
    folder = Path(f"/proc/{pid}/fd")
    inodes = set()
    for entry in folder.iterdir() if folder.is_dir() else ():
        try:
            target = os.readlink(entry)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes
