"""CSV rows per second into tensors: the seed's way, both pipelines, and their peers.

    PYTHONPATH=. python benchmarks/csv_throughput.py [--rows 1000000] [--repeats 3]

Generates (once, cached in benchmarks/.data/, gitignored) a CSV of `--rows`
rows x 5 integer columns, warms every reader up once, then measures each
`--repeats` times, interleaved so that a busy machine slows all of them alike,
and prints the best rate of each with the ratios the targets are stated in:

  modern.input_pipeline      >= 1.0x pandas.read_csv
  tf1compat.input_pipeline   >= 300x the seed's one-line-per-sess.run reading
  either pipeline on hdfs:// >= 0.8x the same pipeline on the local file

pandas and pyarrow produce numpy columns (their own output); every TensorFlow
reader produces tensors of all rows, and its time includes building its graph
or dataset (tracing), except "dataset reused", which iterates one dataset again.
`--hdfs` alone starts the MiniDFS test cluster (2 DataNodes on this machine) and
measures both pipelines on a copy of the file there; `--hdfs hdfs://host:port/dir`
uses that directory of an existing cluster instead. "all CPU s" counts every
process on the machine, so a local cluster's DataNodes show there.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / ".data"
COLUMNS = 5
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from minidfs import running_minidfs  # noqa: E402
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def csv_file(rows: int) -> Path:
    """The cached benchmark file (written once)."""
    import numpy as np
    path = DATA / f"ints_{rows}x{COLUMNS}.csv"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        values = np.random.default_rng(0).integers(-1_000_000, 1_000_000, size=(rows, COLUMNS))
        partial = path.with_suffix(".partial")
        np.savetxt(partial, values, fmt="%d", delimiter=",")
        partial.rename(path)
    return path


# -- the readers: each returns the number of rows it read --------------------------------
def seed_way(path: str, sample: int) -> int:
    """The seed scripts: string_input_producer -> TextLineReader.read -> decode_csv, a row per run."""
    import tensorflow as tf
    graph = tf.Graph()
    with graph.as_default():
        queue = tf.compat.v1.train.string_input_producer([path], num_epochs=1, shuffle=False)
        _, value = tf.compat.v1.TextLineReader().read(queue)
        columns = tf.io.decode_csv(value, record_defaults=[[0]] * COLUMNS)
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(tf.compat.v1.local_variables_initializer())
            coord = tf.compat.v1.train.Coordinator()
            threads = tf.compat.v1.train.start_queue_runners(session, coord)
            count = 0
            try:
                while count < sample:
                    session.run(columns)
                    count += 1
            finally:
                coord.request_stop()
                session.run(queue.close(cancel_pending_enqueues=True))
                coord.join(threads)
    return count


def tf1compat_pipeline(path: str, batch: int) -> int:
    import tensorflow as tf

    from tf1compat.input_pipeline import input_pipeline
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.Session(graph=graph) as session:
        with input_pipeline(path, [[0]] * COLUMNS, batch_size=batch, session=session) as rows:
            return sum(len(b[0]) for b in rows)


def modern_pipeline(path: str, batch: int, engine: str) -> int:
    from modern.input_pipeline import input_pipeline
    dataset = input_pipeline(path, [[0]] * COLUMNS, batch_size=batch, engine=engine).dataset
    return sum(int(b[0].shape[0]) for b in dataset)


def reused_dataset(path: str, batch: int) -> Callable[[], int]:
    """modern's dataset built (traced) once and iterated again on each call."""
    from modern.input_pipeline import input_pipeline
    dataset = input_pipeline(path, [[0]] * COLUMNS, batch_size=batch).dataset
    return lambda: sum(int(b[0].shape[0]) for b in dataset)


def csv_dataset(path: str, batch: int) -> int:
    import tensorflow as tf
    data = tf.data.experimental.CsvDataset(path, [tf.int32] * COLUMNS, buffer_size=1 << 20)
    data = data.batch(batch).prefetch(tf.data.AUTOTUNE)
    return sum(int(b[0].shape[0]) for b in data)


def text_line_decode(path: str, batch: int) -> int:
    import tensorflow as tf
    data = tf.data.TextLineDataset(path, buffer_size=1 << 20).batch(batch)
    data = data.map(lambda lines: tf.io.decode_csv(lines, [[0]] * COLUMNS),
                    num_parallel_calls=tf.data.AUTOTUNE).prefetch(tf.data.AUTOTUNE)
    return sum(int(b[0].shape[0]) for b in data)


def pandas_read(path: str) -> int:
    import pandas as pd
    frame = pd.read_csv(path, header=None)
    return len([frame[c].to_numpy() for c in frame.columns][0])


def pyarrow_read(path: str) -> int:
    import pyarrow.csv as pacsv
    table = pacsv.read_csv(path, read_options=pacsv.ReadOptions(autogenerate_column_names=True))
    return len(table.column(0).to_numpy())


# -- measuring ------------------------------------------------------------------------
def machine_cpu_seconds() -> float:
    """CPU seconds spent by every process on the machine so far (Linux /proc/stat), so
    that the HDFS DataNodes' share of a read shows; NaN elsewhere."""
    try:
        with open("/proc/stat") as stat:
            user, nice, system, _idle, _iowait, irq, softirq, steal = \
                (int(v) for v in stat.readline().split()[1:9])
    except (OSError, ValueError):
        return float("nan")
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measure(readers: dict[str, Callable[[], int]],
            repeats: int) -> dict[str, tuple[int, float, float, float]]:
    """Best (rows, wall seconds, CPU seconds, machine CPU seconds) per reader: a
    warm-up run, then `repeats` interleaved runs. CPU seconds are this process's,
    all threads; machine CPU seconds include every other process (the DataNodes)."""
    best: dict[str, tuple[int, float, float, float]] = {}
    for name, read in readers.items():
        read()
    for _ in range(repeats):
        for name, read in readers.items():
            start, cpu, machine = time.perf_counter(), time.process_time(), machine_cpu_seconds()
            rows = read()
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            machine = machine_cpu_seconds() - machine
            if name not in best or seconds < best[name][1]:
                best[name] = (rows, seconds, cpu, machine)
    return best


HDFS_PEERS = {"tf1compat.input_pipeline": "tf1compat.input_pipeline (hdfs)",
              "modern.input_pipeline (engine=auto: arrow)": "modern.input_pipeline (hdfs)"}


def report(best: dict[str, tuple[int, float, float, float]], pandas: str, seed: str) -> None:
    rate = {name: rows / seconds for name, (rows, seconds, _, _) in best.items()}
    print(f"{'reader':44s} {'rows':>8s} {'wall s':>7s} {'CPU s':>6s} {'all CPU s':>9s} "
          f"{'rows/s':>11s} {'x pandas':>8s} {'x seed':>7s} {'CPU us/row':>10s}")
    for name, (rows, seconds, cpu, machine) in best.items():
        print(f"{name:44s} {rows:8d} {seconds:7.3f} {cpu:6.2f} {machine:9.2f} "
              f"{rate[name]:11,.0f} {rate[name] / rate[pandas]:8.2f} "
              f"{rate[name] / rate[seed]:7.0f} {cpu / rows * 1e6:10.3f}")
    print()
    for name in best:
        if name.startswith("modern"):
            print(f"target modern >= 1.0x pandas: {name}: {rate[name] / rate[pandas]:.2f}x")
        if name.startswith("tf1compat"):
            print(f"target tf1compat >= 300x seed: {name}: {rate[name] / rate[seed]:.0f}x")
    for local, remote in HDFS_PEERS.items():
        if remote in rate:
            print(f"target hdfs >= 0.8x local: {remote}: {rate[remote] / rate[local]:.2f}x")


def hdfs_readers(url: str, local: Path, batch: int) -> dict[str, Callable[[], int]]:
    """HDFS HOOK: copies the file to `url` and returns the two pipelines reading the copy.

    Needs tf1compat.hdfs (the TensorFlow HDFS plugin for the TF1 side; the
    tf.data side also works with its pure-Python fallback).
    """
    from tf1compat.hdfs import ensure_registered
    target = url.rstrip("/") + "/" + local.name
    if ensure_registered(scheme=url.split("://", 1)[0]):
        import tensorflow as tf
        if not tf.io.gfile.exists(target):
            tf.io.gfile.copy(str(local), target)
    return {
        "tf1compat.input_pipeline (hdfs)": lambda: tf1compat_pipeline(target, batch),
        "modern.input_pipeline (hdfs)": lambda: modern_pipeline(target, batch, "auto"),
    }


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed-rows", type=int, default=50_000,
                        help="rows read the seed's way (one sess.run each)")
    parser.add_argument("--batch-size", type=int, default=65_536)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hdfs", metavar="URL", nargs="?", const="start",
                        help="also read a copy in HDFS: at this hdfs:// directory, or, given "
                             "alone, in a MiniDFS cluster started for the run")
    args = parser.parse_args(argv)

    path = csv_file(args.rows)
    local, batch = str(path), args.batch_size
    print(f"file: {path} ({path.stat().st_size / 1e6:.1f} MB, {args.rows} rows x {COLUMNS} int "
          f"columns); batch size {batch}; {os.cpu_count()} CPUs; load average "
          f"{os.getloadavg()[0]:.1f}")
    readers: dict[str, Callable[[], int]] = {
        f"seed: read() per sess.run ({args.seed_rows} rows)": lambda: seed_way(local, args.seed_rows),
        "tf1compat.input_pipeline": lambda: tf1compat_pipeline(local, batch),
        "modern.input_pipeline (engine=auto: arrow)": lambda: modern_pipeline(local, batch, "auto"),
        "modern.input_pipeline (engine=tf)": lambda: modern_pipeline(local, batch, "tf"),
        "modern.input_pipeline (arrow, dataset reused)": reused_dataset(local, batch),
        "tf.data.experimental.CsvDataset": lambda: csv_dataset(local, batch),
        "TextLineDataset + decode_csv": lambda: text_line_decode(local, batch),
        "pandas.read_csv": lambda: pandas_read(local),
        "pyarrow.csv.read_csv": lambda: pyarrow_read(local),
    }
    with contextlib.ExitStack() as stack:
        if args.hdfs:  # the two pipelines on an hdfs:// copy of the same file
            url = stack.enter_context(running_minidfs()) if args.hdfs == "start" else args.hdfs
            readers.update(hdfs_readers(url, path, batch))
        best = measure(readers, args.repeats)
    print(f"load average after: {os.getloadavg()[0]:.1f}\n")
    report(best, "pandas.read_csv", next(iter(readers)))


if __name__ == "__main__":
    main()
