"""Fixtures for the HDFS tests: a real MiniDFS cluster and the hdfs:// plugin.

The cluster (tests/hdfs/minidfs, Hadoop 3.5.0 MiniDFSCluster, 2 DataNodes, 1 MiB
blocks, all on 127.0.0.1) is built on demand by build_minidfs.sh and started once per
session. Tests that touch TensorFlow run it in a subprocess (tf_checks.py), so this
pytest process never initialises the TensorFlow runtime.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hdfs_helpers import HERE, JAR, PLUGIN_CRATE, REPO, MiniDfs, _readline  # noqa: E402

if str(REPO) not in sys.path:  # a checkout not installed with pip install -e
    sys.path.insert(0, str(REPO))

START_TIMEOUT_S = 240


def _build_jar() -> str | None:
    """Builds the harness if needed; returns a skip reason when that is impossible."""
    if shutil.which("java") is None:
        return "java not found: the HDFS tests need Java 17+ to run MiniDFS (apt-get install openjdk-17-jdk-headless)"
    if shutil.which("mvn") is None:
        if JAR.exists():
            return None  # built elsewhere; cannot check it is current
        return f"{JAR} is not built and mvn is not installed: run tests/hdfs/build_minidfs.sh on a machine with Maven"
    # The script returns at once when the jar is newer than its sources.
    result = subprocess.run(["bash", str(HERE / "build_minidfs.sh")], capture_output=True, text=True, timeout=1800)
    if result.returncode != 0 or not JAR.exists():
        pytest.fail(f"building the MiniDFS harness failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return None


@pytest.fixture(scope="session")
def minidfs():
    """The session's MiniDFS cluster; `.url` is hdfs://127.0.0.1:PORT."""
    reason = _build_jar()
    if reason:
        pytest.skip(reason)
    base = Path(tempfile.mkdtemp(prefix="tf1compat-minidfs-"))
    log_path = base / "minidfs.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        ["java", "-Xmx512m", "-XX:+UseSerialGC", "-jar", str(JAR),
         "--datanodes", "2", "--block-size", str(1 << 20), "--base-dir", str(base / "data")],
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


@pytest.fixture(scope="session")
def plugin_env():
    """Environment in which subprocesses load a built plugin; skips if none can be had.

    `pip install -e .` builds the plugin into tf1compat/hdfs/. In a checkout that was
    not installed that way, build it with cargo here (same crate, release profile).
    """
    from tf1compat.hdfs.plugin import plugin_path

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    env.pop("TF1COMPAT_HDFS_PLUGIN", None)
    path = plugin_path()
    if path and os.path.exists(path):
        return env
    if shutil.which("cargo") is None:
        pytest.skip("the hdfs plugin is not built and cargo is not installed: install Rust, then pip install -e .")
    result = subprocess.run(
        ["cargo", "build", "--release", "--locked", "--manifest-path", str(PLUGIN_CRATE / "Cargo.toml")],
        capture_output=True, text=True, timeout=1800,
    )
    built = PLUGIN_CRATE / "target" / "release" / "libtf1compat_hdfs.so"
    if result.returncode != 0 or not built.exists():
        pytest.fail(f"cargo build of the hdfs plugin failed:\n{result.stderr[-4000:]}")
    env["TF1COMPAT_HDFS_PLUGIN_PATH"] = str(built)
    return env


@pytest.fixture
def hdfs_dir(minidfs, request):
    """A fresh directory on the cluster for one test, as an hdfs:// URI."""
    from hdfs_native import Client

    name = request.node.name.replace("[", "_").replace("]", "_")
    path = f"/tests/{name}-{time.monotonic_ns()}"
    Client(minidfs.url).mkdirs(path, 0o777, True)
    return minidfs.url + path
