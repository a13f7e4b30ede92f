"""TF 1.15's test-runner flags as TF 2 reads them.

TF 1.15's `tf.test.main` (googletest's main) ran the benchmarks matching `--benchmarks=REGEX`;
TF 2's reads `--benchmark_filter=REGEX` and its flag parser refuses the old one. `run` renames
the flag where TF 2 reads it; a migrated program passes `tf1compat.test_argv()` as the argv.
"""

from __future__ import annotations

import sys
from typing import Optional, Sequence

TF115_BENCHMARK_FLAGS = ("--benchmarks=", "-benchmarks=")
TF2_BENCHMARK_FLAG = "--benchmark_filter="


def rename_benchmark_flag(argv: list[str]) -> None:
    """Renames, in place, the first `--benchmarks=REGEX` (TF 1.15 read the first one only)."""
    for index, arg in enumerate(argv):
        if arg.startswith(TF115_BENCHMARK_FLAGS):
            argv[index] = TF2_BENCHMARK_FLAG + arg.partition("=")[2]
            return


def test_argv(argv: Optional[Sequence[str]] = None) -> list[str]:
    """`argv` (default: sys.argv), a new list, with TF 1.15's `--benchmarks=REGEX` written as
    TF 2's `--benchmark_filter=REGEX`: `tf.test.main(argv=tf1compat.test_argv())`."""
    args = list(sys.argv if argv is None else argv)
    rename_benchmark_flag(args)
    return args
