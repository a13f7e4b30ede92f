"""`tf1compat migrate PATH... [--diff | --write] [--target tf1compat|modern] [--to tf1compat|tf2]
[--json]`."""

from __future__ import annotations

import argparse
import sys
from tf1compat.cli import docs_pages


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "migrate", epilog=docs_pages.epilog("migrate"),
        help="rewrite TF1 scripts for TF 2.21 (tf_upgrade_v2, then semantics)",
        description="Rewrite TF1 scripts and notebooks: tf.contrib names go to their TF2 home "
                    "or tf1compat's replacement and the old MNIST reader import to tf1compat's, "
                    "TensorFlow's tf_upgrade_v2 renames next, then ConfigProto sessions become tf1compat.session(...) keywords "
                    "(--target tf1compat, the script stays a graph program) or one "
                    "modern.configure(...) call at program start (--target modern); tf.layers "
                    "comes from legacy Keras. What cannot be converted safely is left as is "
                    "and reported with file, line and reason. Nothing is written without "
                    "--write. Example: tf1compat migrate train.py --diff")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help=".py or .ipynb files, or folders to search for them")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--diff", action="store_true", help="print a unified diff per file")
    action.add_argument("--write", action="store_true",
                        help="write the changes into the files (atomically)")
    parser.add_argument("--target", choices=("tf1compat", "modern"), default="tf1compat",
                        help="where session options go: tf1compat.session(...) keywords "
                             "(default) or one modern.configure(...) at program start")
    parser.add_argument("--to", choices=("tf1compat", "tf2"), default="tf1compat",
                        help="tf1compat (default): the script keeps its graph and session; "
                             "tf2: graph + Session.run code becomes TF2 (variables, Keras "
                             "layers and optimizers, tf.function steps) importing tensorflow "
                             "and modern only, and a file it cannot convert gets the "
                             "tf1compat output with the reason reported")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tf1compat.migrate.driver import collect_paths, migrate_file
    from tf1compat.process.atomic import write_atomically
    from tf1compat.migrate.report import format_json, format_text, unified_diff

    files = collect_paths(args.paths)
    results = []
    for path in files:
        result = migrate_file(path, target=args.target, to=args.to)
        if args.write and result.changed:
            write_atomically(path, result.migrated)
            result.written = True
        if args.diff and not args.json:
            sys.stdout.write(unified_diff(result))
        results.append(result)
    if args.json:
        print(format_json(results))
    else:
        print(format_text(results, wrote=args.write))
    return 1 if any(result.error for result in results) else 0
