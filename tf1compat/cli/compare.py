"""`tf1compat compare`: every example in its TF1 and TF2 form, each in its own process, side by side.

With --script, a user's own TF1 script under their TF1 interpreter and under tf1compat
instead (compare_script.py). The comparing is tf1compat.compare's; this is the verb.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor

from tf1compat.cli import compare_script, docs_pages
from tf1compat.compare import examples
from tf1compat.compare.examples import FORMS
from tf1compat.shared.errors import Tf1CompatError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare", epilog=docs_pages.epilog("compare"),
        help="run every example in its TF1 and TF2 form and compare the results",
        description="Run each example twice, as TF1 code (tf1compat) and as TF2 code (modern), "
                    "each in its own process, and print the results side by side. Exits 1 "
                    "when a pair disagrees or a form fails. With --script SCRIPT [ARGS] "
                    "--tf1-python PATH: run your own TF1 script under that TensorFlow 1 "
                    "interpreter and under `tf1compat run` (and, with --migrated, after "
                    "migrate), and compare every number it printed. Example: tf1compat compare "
                    "--tf1-python ~/tf1/bin/python --script train.py --steps 10 (compare's "
                    "options go before --script SCRIPT; everything after it is the script's)",
        allow_abbrev=False)
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this example (repeat, or give a comma list)")
    parser.add_argument("--examples", metavar="DIR",
                        help="the examples folder (default: the checkout's examples/)")
    parser.add_argument("--size", choices=("small", "full"), default="full",
                        help="'small' runs in seconds (the tests use it); default full")
    parser.add_argument("--data", metavar="PATH", help="a local Fashion-MNIST .npz for training")
    parser.add_argument("--hdfs", metavar="URL",
                        help="hdfs://host:port: the CSV example also reads its file from HDFS")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="forms run at once (default 1: timings stay comparable)")
    parser.add_argument("--timeout", type=float, default=900, metavar="S",
                        help="seconds one form may take (default 900)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw TF1 vs TF2 training curves (loss, accuracy per epoch)")
    compare_script.add_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.script is not None:
        if args.init_checkpoint and not args.migrated_tf2:
            raise Tf1CompatError(f"--init-checkpoint {args.init_checkpoint} goes with "
                                 "--migrated-tf2")
        if args.migrated_tf2:
            return compare_script.run_migrated_tf2(args)
        return compare_script.run_script(args)
    for name in ("tf1_python", "migrated", "migrated_tf2", "init_checkpoint"):
        if getattr(args, name):
            raise Tf1CompatError(f"--{name.replace('_', '-')} goes with --script SCRIPT")
    if args.plot:  # before the examples run, not after minutes of them
        from tf1compat.compare.plot import require_matplotlib

        require_matplotlib()
    folder = examples.find_examples(args.examples)
    package = examples.import_package(folder)
    names = examples.selected(tuple(package.EXAMPLES), args.only)
    rows = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {(name, form): pool.submit(examples.run_form, folder, name, form, args.size,
                                               args.data, args.hdfs, args.timeout)
                   for name in names for form in FORMS}
        for number, name in enumerate(names, 1):
            outcomes = {form: futures[(name, form)].result() for form in FORMS}
            row = examples.compare_row(package, name, outcomes)
            rows.append(row)
            times = ", ".join(f"{form} {outcomes[form]['wall']:.1f} s" for form in FORMS)
            print(f"[{number}/{len(names)}] {name}: {row['agreement']} ({times})",
                  file=sys.stderr, flush=True)
    if args.plot:
        from tf1compat.compare.plot import plot_histories

        drawn = plot_histories(rows, args.plot)
        print(f"plotted {drawn} training example(s) to {args.plot}", file=sys.stderr)
    print(json.dumps(rows, indent=2) if args.json else examples.format_table(rows))
    return 0 if all(row["agreement"] == "agree" for row in rows) else 1
