"""Helpers shared by the tests/hdfs modules (fixtures live in conftest.py).

A separately named module, not conftest: `from conftest import ...` can resolve to
another directory's conftest when several exist.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
JAR = HERE / "minidfs" / "target" / "minidfs.jar"
CHECKS = HERE / "tf_checks.py"
PLUGIN_CRATE = REPO / "native" / "hdfs_plugin"
START_TIMEOUT_S = 240


def jar_unavailable() -> str | None:
    """Builds the harness if needed (a no-op when it is current); returns why it cannot be had,
    or None. A build that fails raises: that is a broken checkout, not a missing tool."""
    if shutil.which("java") is None:
        return ("java not found: the HDFS tests need Java 17+ to run MiniDFS "
                "(apt-get install openjdk-17-jdk-headless)")
    if shutil.which("mvn") is None:
        if JAR.exists():
            return None  # built elsewhere; cannot check it is current
        return (f"{JAR} is not built and mvn is not installed: run tests/hdfs/build_minidfs.sh "
                "on a machine with Maven")
    result = subprocess.run(["bash", str(HERE / "build_minidfs.sh")], capture_output=True,
                            text=True, timeout=1800)
    if result.returncode != 0 or not JAR.exists():
        raise RuntimeError(f"building the MiniDFS harness failed:\n{result.stdout[-3000:]}\n"
                           f"{result.stderr[-3000:]}")
    return None


@contextlib.contextmanager
def running_minidfs(bind_host: str = "127.0.0.1", datanodes: int = 2):
    """A started MiniDFS (1 MiB blocks) bound to `bind_host` only, stopped and its storage
    removed on exit, even when the start fails half-way."""
    base = Path(tempfile.mkdtemp(prefix="tf1compat-minidfs-"))
    log_path = base / "minidfs.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        ["java", "-Xmx512m", "-XX:+UseSerialGC", "-jar", str(JAR), "--bind-host", bind_host,
         "--datanodes", str(datanodes), "--block-size", str(1 << 20), "--base-dir",
         str(base / "data")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        line = ""
        while not line.startswith("MINIDFS_READY"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"MiniDFS did not start (exit {proc.poll()}); see {log_path}")
            line = _readline(proc, max(1.0, deadline - time.monotonic()))
        cluster = MiniDfs(proc, line, log_path)
        print(f"\nMiniDFS ready at {cluster.url} in {cluster.startup_ms} ms", file=sys.stderr)
        yield cluster
        cluster.stop()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        log.close()
        shutil.rmtree(base, ignore_errors=True)


class MiniDfs:
    """A running MiniDFS JVM, controlled over its stdin (see MiniDfsServer.java)."""

    def __init__(self, proc: subprocess.Popen, ready_line: str, log_path: Path):
        self.proc = proc
        self.log_path = log_path
        fields = dict(f.split("=", 1) for f in ready_line.split()[1:])
        self.port = int(fields["port"])
        self.url = fields["url"]
        self.startup_ms = int(fields["startup_ms"])
        self._lock = threading.Lock()

    def command(self, line: str, timeout: float = 120) -> str:
        """Sends one command ('stop-datanode 0', ...) and returns the 'OK ...' reply."""
        with self._lock:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = _readline(self.proc, timeout)
        if not reply.startswith("OK"):
            raise RuntimeError(f"minidfs command {line!r} failed: {reply!r} (log: {self.log_path})")
        return reply

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.command("shutdown", timeout=60)
                self.proc.wait(timeout=60)
            except Exception:  # noqa: BLE001 - a stuck JVM is killed below
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


def _readline(proc: subprocess.Popen, timeout: float) -> str:
    """One stdout line of `proc`, or RuntimeError after `timeout` seconds."""
    box: list[str] = []
    t = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    t.start()
    t.join(timeout)
    if not box:
        raise RuntimeError(f"no answer from minidfs within {timeout}s")
    return box[0].strip()


def run_check(env: dict, check: str, timeout: float = 300, **kwargs) -> dict:
    """Runs `tf_checks.py CHECK ARGS_JSON` in a fresh Python and returns its JSON result.

    The check prints one line starting with 'RESULT ' followed by JSON; anything else on
    stdout/stderr is TensorFlow's noise and only shown when the check fails.
    """
    proc = subprocess.run(
        [sys.executable, str(CHECKS), check, json.dumps(kwargs)],
        capture_output=True, text=True, timeout=timeout, env=env,
    )
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError(
        f"check {check} printed no RESULT (exit {proc.returncode}):\n"
        f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-6000:]}"
    )


def make_csv(path, rows: int) -> bytes:
    """Deterministic CSV text; a few MiB spans several 1 MiB HDFS blocks."""
    data = "".join(f"{i},{i * 7 % 1000},{i * 0.5:.1f},label_{i % 13}\n" for i in range(rows)).encode()
    with open(path, "wb") as f:
        f.write(data)
    return data


def put(minidfs, local, uri: str) -> None:
    """Copies a local file into HDFS with the Python client (not the plugin)."""
    from hdfs_native import Client

    with Client(minidfs.url).create(uri.split(minidfs.url, 1)[1]) as f, open(local, "rb") as src:
        f.write(src.read())


def free_port() -> int:
    """A loopback port with nothing listening on it (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
