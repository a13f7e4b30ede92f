"""`tf.test.main()` -> `tf.test.main(argv=tf1compat.test_argv())`: TF 2 renamed the flag that picks
the benchmarks to run.

TF 1.15's `tf.test.main` (and `googletest.main`, which it calls) ran the benchmarks matching
`--benchmarks=REGEX`; TF 2's reads `--benchmark_filter=REGEX` and leaves `--benchmarks=` to the
flag parser, which refuses it. The migrated call gets the command line with the old flag
written as the new one (`tf1compat.test_argv`, the renaming `tf1compat run` makes too), so
the program runs with the command line it always had. A call given its own argv gets that
argv renamed the same way.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, keyword_arg

_SAID = ("{call}(...) -> argv=tf1compat.test_argv(...): TF 2 picks benchmarks with "
         "--benchmark_filter=REGEX where TF 1.15 read --benchmarks=REGEX (TF 2 refuses that "
         "flag as unknown); the command line is passed with the old flag renamed")


class TestMainRule(Rule):
    NAME = "test-main-benchmarks"
    DESCRIPTION = "tf.test.main(...) -> argv=tf1compat.test_argv(...): TF 2's benchmark flag"
    TRIGGERS = ("main",)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        name = get_full_name_for_node(original_node.func) or ""
        if not (self.names.v1_name(original_node.func) == "test.main" or
                name == "googletest.main" or name.endswith(".platform.googletest.main")):
            return updated_node
        args = list(updated_node.args)
        given = next((i for i, arg in enumerate(args)
                      if (arg.keyword is None and not arg.star) or
                      (arg.keyword is not None and arg.keyword.value == "argv")), None)
        if any(arg.star for arg in args) or (given is None and args):
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"{name}(...) left as is: TF 2 picks benchmarks with "
                     "--benchmark_filter=REGEX where TF 1.15 read --benchmarks=REGEX; pass "
                     "argv=tf1compat.test_argv() to keep the old command line")
            return updated_node
        inner = "" if given is None else cst.Module([]).code_for_node(args[given].value)
        value = cst.parse_expression(f"tf1compat.test_argv({inner})")
        if given is None:
            args.append(keyword_arg("argv", value))
        else:
            args[given] = args[given].with_changes(value=value)
        AddImportsVisitor.add_needed_import(self.context, "tf1compat")
        self.add(original_node, Kind.CHANGED, _SAID.format(call=name))
        return updated_node.with_changes(args=args)
