"""What tf1compat costs on top of raw TensorFlow, measured in one run.

1. Session create + first run: `tf1compat.session(...)` versus the raw
   `tf.compat.v1.Session(graph=..., config=ConfigProto(...))`, same graph,
   same options, alternated so machine noise hits both alike.
2. Import time, each in a fresh interpreter: `import tf1compat`,
   `import modern` and `import tensorflow`; and each followed by a first
   session, since that is what a user waits for.

    python benchmarks/overhead.py [--repeats 30]

Prints every median and the ratios (target: <= 1.05x).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(ROOT))


def _build(tf, graph):
    with graph.as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        return tf.matmul(x, x)


def raw_session_seconds(tf, fields) -> float:
    start = time.perf_counter()
    proto = tf.compat.v1.ConfigProto(**fields)  # a TF1 script builds its ConfigProto too
    graph = tf.Graph()
    product = _build(tf, graph)
    sess = tf.compat.v1.Session(graph=graph, config=proto)
    sess.run(product)
    sess.close()
    return time.perf_counter() - start


def compat_session_seconds(tf, tf1compat, keywords) -> float:
    start = time.perf_counter()
    with tf1compat.session(**keywords) as sess:
        product = _build(tf, sess.graph)
        sess.run(product)
    return time.perf_counter() - start


def import_seconds(statement: str, repeats: int) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    samples = [float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, check=True, env=env).stdout.split()[-1])
               for _ in range(repeats)]
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--import-repeats", type=int, default=5)
    args = parser.parse_args()

    import tensorflow as tf

    import tf1compat

    keywords = dict(cpus=2, intra_op_threads=2, inter_op_threads=2, soft_placement=True)
    fields = dict(device_count={"CPU": 2}, intra_op_parallelism_threads=2,
                  inter_op_parallelism_threads=2, allow_soft_placement=True)
    assert tf1compat.config_proto(**keywords) == tf.compat.v1.ConfigProto(**fields)
    for _ in range(3):  # warm both paths (first-session costs are paid once per process)
        raw_session_seconds(tf, fields)
        compat_session_seconds(tf, tf1compat, keywords)
    raw, compat = [], []
    for _ in range(args.repeats):
        raw.append(raw_session_seconds(tf, fields))
        compat.append(compat_session_seconds(tf, tf1compat, keywords))
    raw_ms, compat_ms = statistics.median(raw) * 1e3, statistics.median(compat) * 1e3
    print(f"session create + first run ({args.repeats} each, median)")
    print(f"  raw tf.compat.v1.Session     {raw_ms:8.2f} ms")
    print(f"  tf1compat.session            {compat_ms:8.2f} ms")
    print(f"  ratio tf1compat / raw        {compat_ms / raw_ms:8.3f}x")

    statements = {
        "import tensorflow": "import tensorflow",
        "import tf1compat": "import tf1compat",
        "import modern": "import modern",
        "import tensorflow + first session": (
            "import tensorflow as tf\n"
            "with tf.Graph().as_default() as g:\n"
            "    tf.compat.v1.Session(graph=g).run(tf.constant(1))"),
        "import tf1compat + first session": (
            "import tf1compat, tensorflow as tf\n"
            "with tf1compat.session() as s:\n"
            "    s.run(tf.constant(1))"),
    }
    times = {}
    print(f"\nimport time, fresh interpreter ({args.import_repeats} each, median)")
    for label, statement in statements.items():
        wrapped = "exec(" + repr(statement) + ")"
        times[label] = import_seconds(wrapped, args.import_repeats)
        print(f"  {label:<36} {times[label] * 1e3:9.1f} ms")
    base = times["import tensorflow"]
    print(f"  ratio import tf1compat / tensorflow      {times['import tf1compat'] / base:7.3f}x")
    print(f"  ratio import modern / tensorflow         {times['import modern'] / base:7.3f}x")
    print(f"  ratio first session tf1compat / tensorflow "
          f"{times['import tf1compat + first session'] / times['import tensorflow + first session']:6.3f}x")


if __name__ == "__main__":
    main()
