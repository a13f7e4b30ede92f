"""TextLineDataset throughput: a ~50 MB CSV on MiniDFS (via the plugin) vs. local disk.

Usage:
  python benchmarks/hdfs_read.py [--url hdfs://127.0.0.1:PORT] [--mb 50] [--repeats 3]

Without --url it starts the MiniDFS harness (tests/hdfs/build_minidfs.sh must have been
run). Both sides run in this process, same dataset pipeline, best of --repeats alternating rounds; the
local file is read once first so it is in the page cache (the HDFS DataNodes on this
machine read from the same page cache, so the ratio measures the client path).
Prints rows/s and MB/s for each side and the hdfs/local ratio (target >= 0.8).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA_DIR = REPO / "benchmarks" / ".data"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from minidfs import running_minidfs  # noqa: E402


def make_csv(path: Path, target_mb: float) -> int:
    """Writes a deterministic CSV of about `target_mb` MB; returns its row count."""
    rows, size = 0, 0
    with open(path, "w") as f:
        while size < target_mb * 1e6:
            chunk = "".join(
                f"{i},{i * 7 % 1000},{i * 0.25:.2f},{(i * 31) % 97},label_{i % 13}\n" for i in range(rows, rows + 10_000)
            )
            f.write(chunk)
            rows += 10_000
            size += len(chunk)
    return rows


def count_rows(tf, path: str) -> tuple[float, int]:
    """Wall time of reading every line of `path` once. The count is done in-graph, so
    Python iteration overhead does not hide the read path."""
    ds = tf.data.TextLineDataset(path, buffer_size=1 << 20).batch(4096)
    start = time.perf_counter()
    rows = int(ds.reduce(tf.constant(0, tf.int64), lambda n, b: n + tf.size(b, out_type=tf.int64)))
    return time.perf_counter() - start, rows


def best_of_alternating(tf, paths: list[str], repeats: int) -> list[tuple[float, int]]:
    """Best time per path over `repeats` rounds, the paths alternating within a round so
    that load from other processes on the machine hits both sides alike."""
    best = [(float("inf"), 0)] * len(paths)
    for _ in range(repeats):
        for i, p in enumerate(paths):
            t, rows = count_rows(tf, p)
            best[i] = min(best[i], (t, rows))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="hdfs://host:port of a running cluster (default: start MiniDFS)")
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--block-mb", type=int, default=128, help="HDFS block size of the uploaded file (MiB)")
    args = parser.parse_args()

    DATA_DIR.mkdir(parents=True, exist_ok=True)
    local = DATA_DIR / f"bench_{int(args.mb)}mb.csv"
    if not local.exists():
        make_csv(local, args.mb)
    size_mb = local.stat().st_size / 1e6

    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(running_minidfs())
        from hdfs_native import Client, WriteOptions

        remote_path = f"/bench/{args.block_mb}mb_blocks_{local.name}"
        options = WriteOptions(overwrite=True, block_size=args.block_mb << 20)
        with Client(url).create(remote_path, options) as f, open(local, "rb") as src:
            f.write(src.read())

        import tensorflow as tf

        from tf1compat.hdfs import ensure_registered

        if not ensure_registered():
            sys.exit("the hdfs plugin is not available; see tf1compat.hdfs.plugin_status()")
        count_rows(tf, str(local))  # warm the page cache and TF's one-time setup
        (local_s, local_rows), (hdfs_s, hdfs_rows) = best_of_alternating(
            tf, [str(local), url + remote_path], args.repeats)
        if hdfs_rows != local_rows:
            sys.exit(f"row counts differ: hdfs={hdfs_rows} local={local_rows}")
        print(
            f"file: {size_mb:.1f} MB, {local_rows} rows; HDFS blocks {args.block_mb} MiB; "
            f"readahead {os.environ.get('TF1COMPAT_HDFS_READAHEAD_MB', '8')} MiB; best of {args.repeats}"
        )
        print(f"local: {local_rows / local_s:,.0f} rows/s  {size_mb / local_s:,.1f} MB/s  ({local_s:.3f} s)")
        print(f"hdfs:  {hdfs_rows / hdfs_s:,.0f} rows/s  {size_mb / hdfs_s:,.1f} MB/s  ({hdfs_s:.3f} s)")
        print(f"ratio hdfs/local: {local_s / hdfs_s:.2f}x (target >= 0.80)")


if __name__ == "__main__":
    main()
