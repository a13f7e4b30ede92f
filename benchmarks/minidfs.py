"""Starts the MiniDFS test cluster (tests/hdfs/minidfs) for a benchmark run.

Build it once with `bash tests/hdfs/build_minidfs.sh`. The cluster binds 127.0.0.1 only
and stops with the benchmark (its stdin closes).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path
from typing import Iterator

JAR = Path(__file__).resolve().parents[1] / "tests" / "hdfs" / "minidfs" / "target" / "minidfs.jar"


@contextlib.contextmanager
def running_minidfs(block_mb: int = 128) -> Iterator[str]:
    """Yields the hdfs://127.0.0.1:PORT URL of a fresh 2-DataNode cluster."""
    if not JAR.exists():
        sys.exit(f"{JAR} not built: run tests/hdfs/build_minidfs.sh, or pass a cluster URL")
    proc = subprocess.Popen(
        ["java", "-Xmx512m", "-jar", str(JAR), "--datanodes", "2",
         "--block-size", str(block_mb << 20)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("MINIDFS_READY"):
            sys.exit(f"MiniDFS did not start: {line!r}")
        yield dict(f.split("=", 1) for f in line.split()[1:])["url"]
    finally:
        if proc.poll() is None:
            proc.stdin.close()  # the harness shuts down cleanly on EOF
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
