"""`tf1compat run SCRIPT [ARGS]`: an unmodified TF1 script, run on TF 2.21 in its own process."""

from __future__ import annotations

import argparse
import json
import os
import sys

from tf1compat.cli.option_flags import add_option_flags, options_from_args
from tf1compat.cli.script_argv import stop_at_script
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.cli import docs_pages


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", epilog=docs_pages.epilog("run"),
        help="run an unmodified TF1 script on TF 2.21",
        description="Run a TF1 script as it is, in its own process: `import tensorflow` gives it "
                    "TF1 (graph mode, tf.Session, tf.app.flags, tf.train, tf.layers through "
                    "tf_keras; tf.contrib's common names and the old MNIST reader from "
                    "tf1compat), the session options below are merged into every session it "
                    "creates (its own values win unless --override), and --device-map remaps "
                    "device requests. A report goes to stderr when it ends (every TF1 symbol "
                    "used and how it was served: native, mapped, replaced, unsupported); the "
                    "exit code is the script's. SIGTERM, SIGHUP and SIGINT stop it as they "
                    "stop `python SCRIPT`, also while TensorFlow blocks it (a SIGINT that "
                    "cannot reach it within 5 s, or a second one, ends it); if run dies, the "
                    "script and all it started die too. Example: tf1compat run --device-map "
                    "'gpu:*=cpu:*' train.py --steps 10. run's options go before SCRIPT; everything after "
                    "it is the script's, unchanged. A NOTEBOOK.ipynb runs its code cells in order in "
                    "a Jupyter kernel with TF1 served the same way (tf1compat[notebook]), and "
                    "the executed notebook is written beside it (--output, --in-place).",
        allow_abbrev=False)
    parser.add_argument("--override", action="store_true",
                        help="the command line's options win over the script's own")
    parser.add_argument("--device-map", action="append", default=[], metavar="RULES",
                        help="remap device requests, e.g. 'gpu:*=cpu:*' (GPU i runs on logical "
                             "CPU i, the CPU split as needed) or 'gpu:1=cpu:0'; comma-separated "
                             "or repeated")
    parser.add_argument("--user-root", action="append", default=[], metavar="DIR",
                        help="modules under DIR are user code too (they get TF1); the script's "
                             "folder, the working directory and PYTHONPATH entries always are")
    parser.add_argument("--library-root", action="append", default=[], metavar="DIR",
                        help="modules under DIR are libraries (they keep TF2's tensorflow), "
                             "even inside a user root")
    parser.add_argument("--numpy", default="1", metavar="1|current",
                        help="1 (the default): the script's numpy has NumPy 1's removed names "
                             "(np.float, np.asscalar, ...), makes ragged arrays object arrays "
                             "and prints scalars as NumPy 1 did, and scipy.misc's image "
                             "helpers are served; current: NumPy and SciPy as installed")
    parser.add_argument("--report-json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--no-report", action="store_true", help="print no report at the end")
    parser.add_argument("--output", metavar="OUT.ipynb",
                        help="notebooks only: write the executed notebook here (default: "
                             "beside it, NAME.tf1compat.ipynb)")
    parser.add_argument("--in-place", action="store_true",
                        help="notebooks only: write the executed notebook over the notebook")
    add_option_flags(parser)
    parser.add_argument("script", help="the TF1 script (or .ipynb notebook) to run")
    parser.add_argument("script_args", nargs=argparse.REMAINDER,
                        help="arguments for the script (its sys.argv[1:]), as given")
    stop_at_script(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tf1compat.runner.device_map import DeviceMap
    from tf1compat.runner import RunSpec, json_options
    from tf1compat.notebook.reading import is_notebook_path
    from tf1compat.runner.spawn import ChildRun

    if not os.path.isfile(args.script):
        what = "is a directory, not a script" if os.path.isdir(args.script) else "does not exist"
        raise Tf1CompatError(f"script {args.script!r} {what}")
    from tf1compat.runner.numpy1 import CHOICES

    if args.numpy not in CHOICES:
        raise Tf1CompatError(f"--numpy {args.numpy!r} is not accepted: use --numpy 1 (NumPy 1 "
                             "for the script, the default) or --numpy current")
    notebook = is_notebook_path(args.script)
    if not notebook and (args.output or args.in_place):
        flag = "--output" if args.output else "--in-place"
        raise Tf1CompatError(f"{flag} applies to notebooks only; {args.script!r} is a script "
                             "(accepted: a NOTEBOOK.ipynb after it)")
    options = options_from_args(args)
    device_map = DeviceMap.parse(args.device_map)  # checked here, so errors are ours
    from tf1compat.runner import roots

    roots.current(os.path.dirname(os.path.abspath(args.script)), args.user_root,
                  args.library_root)  # checked here; the child resolves the same roots
    spec = RunSpec(script=args.script, args=list(args.script_args),
                   options=json_options(options), override=args.override,
                   device_map=device_map.to_list(), user_roots=list(args.user_root),
                   library_roots=list(args.library_root), numpy=args.numpy)
    if notebook:
        from tf1compat.cli.run_notebook import run_notebook

        code, report = run_notebook(args, spec)
        return _end(args, code, report)
    child = ChildRun(spec)
    code, report = child.run()
    code = _end(args, code, report)
    if child.killed_by is not None:  # end as the script did, as `python script.py` would
        from tf1compat.process.lifetime import end_as

        return end_as(child.killed_by)
    return code


def _end(args: argparse.Namespace, code: int, report) -> int:
    """Prints (and writes) the run's report; returns the exit code."""
    from tf1compat.runner.report import format_report

    if report is not None and "not_started" in report:
        return code  # the child said why, in one message
    if report is None:
        if not args.no_report:
            print(f"tf1compat run: {os.path.basename(args.script)} ended with exit code {code} "
                  "before writing its report (stopped by a signal)", file=sys.stderr)
    else:
        if args.report_json:
            with open(args.report_json, "w") as handle:
                json.dump(report, handle, indent=2)
        if not args.no_report:
            sys.stdout.flush()
            print(format_report(report), file=sys.stderr)
    return code
