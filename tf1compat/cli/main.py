"""The `tf1compat` command: registers one module per verb and runs it.

Errors the user can fix are printed as one line (`tf1compat: error: ...`)
with a non-zero exit code; no traceback, unless TF1COMPAT_DEBUG=1.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from tf1compat.cli import compare, docs_pages, doctor, explain, kernel, launch, migrate, run
from tf1compat.cli.script_argv import ScriptArgumentParser

# Verbs that print reports: TensorFlow's native start-up chatter would drown them.
_QUIET_VERBS = {"doctor", "explain", "migrate"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tf1compat",
        description="Run TensorFlow 1 session code on TensorFlow 2.21, and see each "
                    "ConfigProto option as its TF2 call.",
        epilog=docs_pages.epilog("tf1compat"))
    # The verbs that run a script end their options at it (script_argv).
    subparsers = parser.add_subparsers(dest="verb", metavar="COMMAND", required=True,
                                       parser_class=ScriptArgumentParser)
    for verb in (compare, run, migrate, launch, doctor, explain, kernel):
        verb.register(subparsers)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.original_environ = dict(os.environ)
    from tf1compat.shared.errors import Tf1CompatError

    try:
        if args.verb in _QUIET_VERBS:
            from tf1compat.cli.quiet import native_stderr_captured

            with native_stderr_captured(lambda error: not isinstance(error, Tf1CompatError)):
                return int(args.handler(args) or 0)
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("tf1compat: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # the one place a traceback is turned into a line
        if os.environ.get("TF1COMPAT_DEBUG") == "1":
            raise
        kind = "error" if isinstance(error, Tf1CompatError) else \
            f"unexpected {type(error).__name__} (set TF1COMPAT_DEBUG=1 for the traceback)"
        print(f"tf1compat: {kind}: {error}", file=sys.stderr)
        return 2 if isinstance(error, Tf1CompatError) else 1


if __name__ == "__main__":
    sys.exit(main())
