"""`tf.test.main()`: reported, since TF 2 renamed the flag that picks the benchmarks to run.

TF 1.15's `tf.test.main` (and `googletest.main`, which it calls) ran the benchmarks matching
`--benchmarks=REGEX`; TF 2's reads `--benchmark_filter=REGEX` and leaves `--benchmarks=` to the
flag parser, which refuses it. The call itself is unchanged, so the script's command line must
change; `tf1compat run` reads the old flag.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

_NOTE = ("tf.test.main left as is: TF 2 picks benchmarks with --benchmark_filter=REGEX where "
         "TF 1.15 read --benchmarks=REGEX (TF 2 refuses that flag as unknown): change the "
         "command line that runs the benchmarks (tf1compat run reads the old flag)")


class TestMainRule(Rule):
    NAME = "test-main-benchmarks"
    DESCRIPTION = "tf.test.main -> reported: TF 2's benchmark flag is --benchmark_filter="
    TRIGGERS = ("main",)

    def visit_Call(self, node: cst.Call) -> None:
        name = get_full_name_for_node(node.func) or ""
        if self.names.v1_name(node.func) == "test.main" or name == "googletest.main" or \
                name.endswith(".platform.googletest.main"):
            self.add(node, Kind.NOTE, _NOTE)
