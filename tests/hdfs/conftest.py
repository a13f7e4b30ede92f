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
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hdfs_helpers import PLUGIN_CRATE, REPO, jar_unavailable, running_minidfs  # noqa: E402

if str(REPO) not in sys.path:  # a checkout not installed with pip install -e
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="session")
def minidfs():
    """The session's MiniDFS cluster; `.url` is hdfs://127.0.0.1:PORT."""
    try:
        reason = jar_unavailable()
    except RuntimeError as error:
        pytest.fail(str(error))
    if reason:
        pytest.skip(reason)
    with running_minidfs() as cluster:
        yield cluster


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
