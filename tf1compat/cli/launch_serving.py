"""How `tf1compat launch` runs a .py SCRIPT in each task: under `tf1compat run` or plain python.

A TF1 script (`tf.app.flags`, `tf.contrib`, `tf.Session`) fails at its first TF1 name under
plain python on TF 2.21; a TF2 script (Keras 3 `fit` under a strategy) needs TF 2's eager
API, which `run`'s TF1 view does not give. A script given TF1's cluster flags (--tf1-flags)
is a TF1 program, so it is served as `run` serves it unless --python says otherwise; --tf1
(or `run`'s options in --run-args) asks for that serving without the flags (a TF1 Estimator
reading TF_CONFIG).
"""

from __future__ import annotations

import argparse
import shlex

from tf1compat.shared.errors import LaunchError


def serves_tf1(args: argparse.Namespace) -> bool:
    """Whether each task runs SCRIPT under `tf1compat run`: asked for (--tf1, --run-args), or
    a TF1 program by its flags (--tf1-flags) that --python does not keep on plain python."""
    return bool(args.tf1 or args.run_args or (args.tf1_flags and not args.python))


def serving_options(args: argparse.Namespace) -> list[str]:
    """The serving options of this command line, for the launch a batch job or pod runs."""
    options = ["--tf1"] if args.tf1 else ["--python"] if args.python else []
    return options + (["--run-args", args.run_args] if args.run_args else [])


def run_options(args: argparse.Namespace) -> list[str]:
    try:
        return shlex.split(args.run_args or "")
    except ValueError as error:
        raise LaunchError(f"invalid --run-args: received {args.run_args!r} ({error}); accepted: "
                          "`tf1compat run`'s options as one quoted string") from None
