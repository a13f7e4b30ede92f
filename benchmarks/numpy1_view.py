"""What the NumPy 1 view of `run --numpy 1` costs a script's inner loop, measured in one run.

A TF1 script's NumPy code reads `np.<name>` constantly: the same loop body (attribute reads
and small calls: `np.zeros`, `np.float32`, `np.maximum`, `np.array` of a list, `np.mean`)
runs on the real numpy and on the view user code gets, alternated so machine noise hits both
alike; a loop of attribute reads alone shows the lookup itself.

    python benchmarks/numpy1_view.py [--repeats 15] [--loops 20000]

Prints the medians and the ratios view / numpy (1.00x: no cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy  # noqa: E402

from tf1compat.runner.numpy1.view import NumPy1Module, Usage  # noqa: E402


def work(np, loops: int) -> float:
    start = time.perf_counter()
    total = 0.0
    for step in range(loops):
        batch = np.zeros((4,), dtype=np.float32)
        batch = np.maximum(batch, np.float32(step))
        total += float(np.mean(np.array([step, 1.0, 2.0])) + batch[0])
    return time.perf_counter() - start


def lookups(np, loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        np.zeros, np.float32, np.ndarray, np.maximum, np.mean, np.int64, np.sum, np.random
    return time.perf_counter() - start


def median_pair(measure, view, loops: int, repeats: int) -> tuple[float, float]:
    real_times, view_times = [], []
    for _ in range(repeats):
        real_times.append(measure(numpy, loops))
        view_times.append(measure(view, loops))
    return statistics.median(real_times), statistics.median(view_times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--loops", type=int, default=20000)
    args = parser.parse_args(argv)
    view = NumPy1Module(numpy, Usage())
    for label, measure, loops in (("inner loop (zeros, maximum, array, mean)", work, args.loops),
                                  ("8 attribute reads", lookups, args.loops * 10)):
        real, ours = median_pair(measure, view, loops, args.repeats)
        print(f"{label}: numpy {real * 1e9 / loops:8.0f} ns/iteration, view "
              f"{ours * 1e9 / loops:8.0f} ns/iteration, ratio {ours / real:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
