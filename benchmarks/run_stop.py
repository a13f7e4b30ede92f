"""Wall time of TF1 scripts under `tf1compat run` versus `python`, started and stopped as usual.

1. A ps + worker pair (TF1 gRPC servers on free 127.0.0.1 ports): the ps task
   started in the background, the worker in the foreground; when the worker
   has finished, SIGTERM to the ps task; the time runs until both have ended.
2. A single-process script: a small graph trained for a few steps in a session.

Each twice: the unmodified TF1 script (`import tensorflow as tf`) under
`tf1compat run`, and the same script with `import tensorflow.compat.v1 as tf`
and `tf.disable_v2_behavior()` under plain `python`, alternated so machine
noise hits both alike.

    python benchmarks/run_stop.py [--repeats 5]

Prints every median and the ratios run / python (target: <= 1.05x).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TF1_IMPORT = "import tensorflow as tf\n"
COMPAT_IMPORT = "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"

PAIR = """
import sys

job, ps, worker = sys.argv[1:4]
cluster = tf.train.ClusterSpec({"ps": [ps], "worker": [worker]})
server = tf.train.Server(cluster, job_name=job, task_index=0)
if job == "ps":
    server.join()
with tf.device(tf.train.replica_device_setter(cluster=cluster)):
    x = tf.random_normal([64, 8], seed=1)
    w = tf.Variable(tf.zeros([8, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session(server.target) as session:
    session.run(tf.global_variables_initializer())
    for _ in range(50):
        session.run(train)
    print("loss", session.run(loss))
"""

SINGLE = """
x = tf.random_normal([256, 32], seed=1)
w = tf.Variable(tf.zeros([32, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for _ in range(200):
        session.run(train)
    print("loss", session.run(loss))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def commands(folder: Path, body: str, name: str) -> dict[str, list[str]]:
    """The two ways of running one script: {'run': [...], 'python': [...]}."""
    tf1 = folder / f"{name}_tf1.py"
    tf1.write_text(TF1_IMPORT + body)
    compat = folder / f"{name}_compat.py"
    compat.write_text(COMPAT_IMPORT + body)
    return {"run": [sys.executable, "-m", "tf1compat.cli.main", "run", "--no-report", str(tf1)],
            "python": [sys.executable, str(compat)]}


def pair_seconds(command: list[str], env: dict, stops: list[float]) -> float:
    """The pair's wall time; appends to `stops` the time from SIGTERM to the ps task's end."""
    ps, worker = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    start = time.perf_counter()
    ps_task = subprocess.Popen([*command, "ps", ps, worker], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run([*command, "worker", ps, worker], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        stopping = time.perf_counter()
        ps_task.send_signal(signal.SIGTERM)
        ps_task.wait(timeout=120)
        end = time.perf_counter()
        stops.append(end - stopping)
        return end - start
    finally:
        if ps_task.poll() is None:
            ps_task.kill()
            ps_task.wait()


def single_seconds(command: list[str], env: dict, stops: list[float]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    with tempfile.TemporaryDirectory(prefix="run-stop-") as name:
        folder = Path(name)
        cases = {
            "ps + worker pair, ps stopped by SIGTERM": (pair_seconds,
                                                        commands(folder, PAIR, "pair")),
            "single-process script": (single_seconds, commands(folder, SINGLE, "single"))}
        for label, (measure, ways) in cases.items():
            for way in ways.values():  # warm the file cache for both
                measure(way, env, [])
            samples: dict[str, list[float]] = {way: [] for way in ways}
            stops: dict[str, list[float]] = {way: [] for way in ways}
            for _ in range(args.repeats):
                for way, command in ways.items():
                    samples[way].append(measure(command, env, stops[way]))
            run, python = (statistics.median(samples[w]) for w in ("run", "python"))
            print(f"{label} ({args.repeats} each, alternated, median wall time)")
            print(f"  tf1compat run (TF1 script)            {run:7.2f} s")
            print(f"  python (tf.compat.v1 script)          {python:7.2f} s")
            print(f"  ratio run / python                    {run / python:7.3f}x")
            if stops["run"]:
                run_stop, python_stop = (statistics.median(stops[w]) for w in ("run", "python"))
                print(f"  SIGTERM to the ps task's end: run {run_stop:.3f} s, "
                      f"python {python_stop:.3f} s")


if __name__ == "__main__":
    main()
