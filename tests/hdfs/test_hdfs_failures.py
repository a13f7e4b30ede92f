"""Failures a real cluster has: a NameNode that is not there, a DataNode that dies."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading

import pytest
from hdfs_helpers import CHECKS, free_port, make_csv, put, run_check

pytestmark = pytest.mark.hdfs

CONNECT_LIMIT_S = 3


def test_namenode_not_running_fails_within_bound_naming_host_and_port(plugin_env):
    port = free_port()
    env = dict(plugin_env, TF1COMPAT_HDFS_CONNECT_TIMEOUT_S=str(CONNECT_LIMIT_S))

    got = run_check(env, "namenode_down", uri=f"hdfs://127.0.0.1:{port}/data/train.csv")

    assert got["registered"] is True
    assert got["error"]["class"] == "UnavailableError", got["error"]
    assert f"127.0.0.1:{port}" in got["error"]["message"]
    # Refused connections fail at once; the bound is the worst case.
    assert got["seconds"] < CONNECT_LIMIT_S + 2, got


def test_silent_namenode_is_bounded_by_rpc_deadline(plugin_env):
    """A NameNode that accepts connections but never answers (hung JVM, SIGSTOP)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held = []
    stop = threading.Event()

    def accept_and_hold():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept_and_hold, daemon=True)
    thread.start()
    env = dict(plugin_env, TF1COMPAT_HDFS_RPC_TIMEOUT_S=str(CONNECT_LIMIT_S))
    try:
        got = run_check(env, "namenode_down", uri=f"hdfs://127.0.0.1:{port}/data/train.csv")
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        listener.close()

    assert got["error"]["class"] == "DeadlineExceededError", got["error"]
    assert f"127.0.0.1:{port}" in got["error"]["message"]
    assert "TF1COMPAT_HDFS_RPC_TIMEOUT_S" in got["error"]["message"]
    assert got["seconds"] < CONNECT_LIMIT_S + 2, got


def test_fallback_namenode_not_running_fails_fast_naming_host_and_port(monkeypatch):
    from tf1compat.shared.errors import HdfsConnectionError
    from tf1compat.hdfs import read_bytes

    port = free_port()
    monkeypatch.setenv("TF1COMPAT_HDFS_CONNECT_TIMEOUT_S", str(CONNECT_LIMIT_S))
    with pytest.raises(HdfsConnectionError, match=f"127.0.0.1:{port}"):
        read_bytes(f"hdfs://127.0.0.1:{port}/x.csv")


def test_datanode_stopped_mid_read_still_reads_identical_rows(plugin_env, minidfs, hdfs_dir, tmp_path):
    local = tmp_path / "big.csv"
    make_csv(local, 250_000)  # ~8.3 MB: 9 blocks, each on both DataNodes (replication 2)
    uri = hdfs_dir + "/big.csv"
    put(minidfs, local, uri)
    # 1 MiB windows: most of the file is still to be fetched when the DataNode dies.
    env = dict(plugin_env, TF1COMPAT_HDFS_READAHEAD_MB="1")
    args = json.dumps({"uri": uri, "local": str(local), "pause_after": 10_000})
    reader = subprocess.Popen(
        [sys.executable, str(CHECKS), "paced_read", args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    stopped = False
    try:
        line = reader.stdout.readline()
        while line and not line.startswith("PAUSED"):
            line = reader.stdout.readline()
        assert line.startswith("PAUSED"), reader.stderr.read()[-4000:]
        minidfs.command("stop-datanode 0")
        stopped = True
        out, err = reader.communicate("go\n", timeout=300)
    finally:
        if reader.poll() is None:
            reader.kill()
        if stopped:
            minidfs.command("restart-datanode 0")
    results = [l for l in out.splitlines() if l.startswith("RESULT ")]
    assert results, err[-4000:]
    got = json.loads(results[-1][len("RESULT "):])
    assert got["hdfs"]["count"] == 250_000
    assert got["hdfs"] == got["local"]
    # Failing over to the other replica must not wait for a socket timeout.
    assert got["seconds_after_resume"] < 30, got
