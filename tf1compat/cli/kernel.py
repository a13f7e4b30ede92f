"""`tf1compat kernel install|list|remove`: the Jupyter kernel that serves TF1 to every notebook."""

from __future__ import annotations

import argparse

from tf1compat.notebook.kernelspec import DEFAULT_NAME, DISPLAY_NAME
from tf1compat.cli import docs_pages


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "kernel", epilog=docs_pages.epilog("kernel"),
        help="install the Jupyter kernel that serves TF1 to notebooks",
        description=f"Install, list or remove the Jupyter kernel {DISPLAY_NAME!r}: ipykernel "
                    "on this Python with `%load_ext tf1compat` done at start, so "
                    "`import tensorflow as tf` in any cell gives TF1 (libraries keep TF2) and "
                    "`%tf1compat report` shows what was served. Example: tf1compat kernel "
                    "install --user, then pick the kernel in JupyterLab.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser("install", help="install the kernel spec")
    install.add_argument("--name", default=DEFAULT_NAME,
                         help=f"the kernel's name (default: {DEFAULT_NAME})")
    where = install.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true",
                       help="for this user only (~/.local/share/jupyter/kernels)")
    where.add_argument("--prefix", metavar="P",
                       help="under P/share/jupyter/kernels (e.g. a virtual environment's "
                            "sys.prefix)")
    actions.add_parser("list", help="list the installed tf1compat kernels")
    remove = actions.add_parser("remove", help="remove an installed tf1compat kernel")
    remove.add_argument("name", nargs="?", default=DEFAULT_NAME,
                        help=f"the kernel's name (default: {DEFAULT_NAME})")
    parser.set_defaults(handler=kernel)


def kernel(args: argparse.Namespace) -> int:
    from tf1compat.notebook import kernelspec, require

    require("tf1compat kernel")
    if args.action == "install":
        folder = kernelspec.install(args.name, user=args.user, prefix=args.prefix)
        print(f"installed kernel {args.name.lower()!r} ({DISPLAY_NAME}) in {folder}")
    elif args.action == "list":
        installed = kernelspec.ours()
        for name, folder in sorted(installed.items()):
            print(f"{name}  {folder}")
        if not installed:
            print("no tf1compat kernel installed (tf1compat kernel install --user)")
    else:
        print(f"removed kernel {args.name!r} from {kernelspec.remove(args.name)}")
    return 0
