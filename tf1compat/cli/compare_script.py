"""`tf1compat compare --script SCRIPT [ARGS]` (and `--migrated`, `--migrated-tf2`): the options
and the printed outcome; the comparing is tf1compat.compare's (`script`, `migrated_tf2`)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from tf1compat.cli.script_argv import stop_at_script
from tf1compat.compare import printed_numbers
from tf1compat.compare.migrated_tf2 import compare_migrated_tf2
from tf1compat.compare.script import compare_script, format_outcome
from tf1compat.shared.errors import Tf1CompatError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", metavar="SCRIPT [ARGS]",
                        help="compare this TF1 script under --tf1-python and under `tf1compat "
                             "run`, each side in its own copy of the working directory; it "
                             "ends compare's options: everything after SCRIPT is its own")
    parser.add_argument("--tf1-python", metavar="PATH",
                        help="with --script: the python of a TensorFlow 1.x environment")
    parser.add_argument("--migrated", action="store_true",
                        help="with --script: also run it after `tf1compat migrate` (a scratch "
                             "copy) under plain python")
    parser.add_argument("--migrated-tf2", action="store_true",
                        help="with --script: compare the script under --tf1-python with its "
                             "`migrate --to tf2` rewrite under plain python, both started "
                             "from one TF1 checkpoint of the initial variables (written by the "
                             "TF1 run, or --init-checkpoint)")
    parser.add_argument("--init-checkpoint", metavar="PREFIX",
                        help="with --migrated-tf2: start both sides from this TF1 checkpoint "
                             "(model.ckpt-N) instead of the TF1 run's own initial values")
    parser.add_argument("--rtol", type=float, default=printed_numbers.DEFAULT_RTOL,
                        help=f"with --script: relative float tolerance (default "
                             f"{printed_numbers.DEFAULT_RTOL:g}); integers must be equal")
    parser.add_argument("--atol", type=float, default=printed_numbers.DEFAULT_ATOL,
                        help=f"with --script: absolute float tolerance (default "
                             f"{printed_numbers.DEFAULT_ATOL:g})")
    stop_at_script(parser, option="--script")


def check(args: argparse.Namespace) -> tuple[Path, Path]:
    """The script and the TF1 python, checked."""
    script = Path(args.script)
    if not script.is_file():
        raise Tf1CompatError(f"--script {script}: no such script file")
    if not args.tf1_python:
        late = [arg for arg in args.script_args if arg.split("=")[0] == "--tf1-python"]
        raise Tf1CompatError(
            "--script needs --tf1-python PATH: the python of a TensorFlow 1.x environment "
            "(e.g. a Python 3.7 venv with tensorflow-cpu==1.15.0)"
            + ("; the --tf1-python after the script is the script's own argument: put "
               "compare's options before --script" if late else ""))
    python = Path(args.tf1_python)
    if not (python.is_file() and os.access(python, os.X_OK)):
        raise Tf1CompatError(f"--tf1-python {args.tf1_python}: not an executable file; give "
                             "the python of a TensorFlow 1.x environment")
    for name in ("rtol", "atol"):
        if getattr(args, name) < 0:
            raise Tf1CompatError(f"--{name} {getattr(args, name)}: must be >= 0")
    return script, python


def run_script(args: argparse.Namespace) -> int:
    script, python = check(args)
    outcome, comparisons = compare_script(script, args.script_args, python, args.migrated,
                                          args.rtol, args.atol, args.timeout)
    print(json.dumps(outcome, indent=2) if args.json else format_outcome(outcome, comparisons))
    return 0 if outcome["ok"] else 1


def run_migrated_tf2(args: argparse.Namespace) -> int:
    """`compare --script ... --migrated-tf2`: checks the options, compares, prints."""
    script, python = check(args)
    if args.migrated:
        raise Tf1CompatError("--migrated and --migrated-tf2: give one (the tf1compat "
                             "migration or the TF2 one)")
    outcome, comparisons = compare_migrated_tf2(script, args.script_args, python,
                                                args.init_checkpoint, args.rtol, args.atol,
                                                args.timeout)
    print(json.dumps(outcome, indent=2) if args.json else
          format_outcome(outcome, comparisons))
    return 0 if outcome["ok"] else 1
