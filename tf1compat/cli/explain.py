"""`tf1compat explain`: the TF1 ConfigProto and the TF2 code for options, side by side."""

from __future__ import annotations

import argparse
import json
import os
import textwrap

from tf1compat.cli.option_flags import add_option_flags, options_from_args
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.cli import docs_pages


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "explain", epilog=docs_pages.epilog("explain"),
        help="show the TF1 ConfigProto and the TF2 code for session options",
        description="Print the TF1 ConfigProto text and the TF2 code that does the same, side "
                    "by side, then the status of each option on this machine (or a simulated "
                    "one). The TF2 code is the same on every machine: paste it into a program "
                    "that runs anywhere. Example: tf1compat explain --growth --memory-fraction 0.5")
    parser.add_argument("--config", metavar="FILE",
                        help="read a ConfigProto (text format .pbtxt, or serialized binary)")
    parser.add_argument("--table", action="store_true",
                        help="print the option table (Markdown, as in the README) and exit")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--simulate-gpus", type=int, metavar="N",
                        help="give the status on a machine with N GPUs instead of this one "
                             "(the TF2 code does not change)")
    parser.add_argument("--gpu-memory-mib", type=int, default=16384, metavar="MIB",
                        help="total memory of each simulated GPU (default 16384)")
    add_option_flags(parser)
    parser.set_defaults(handler=run)


def _read_config(path: str) -> bytes | str:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise Tf1CompatError(f"--config {path}: cannot read it ({error.strerror})") from None
    try:
        return data.decode("utf-8")  # text format
    except UnicodeDecodeError:
        return data  # serialized ConfigProto


def side_by_side(left: str, right: str, left_title: str, right_title: str) -> str:
    left_lines = [left_title, "-" * len(left_title)] + left.rstrip("\n").splitlines()
    right_lines = [right_title, "-" * len(right_title)] + right.rstrip("\n").splitlines()
    width = max(40, max(len(line) for line in left_lines) + 2)
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    return "\n".join(f"{a:<{width}}| {b}".rstrip() for a, b in zip(left_lines, right_lines))


def run(args: argparse.Namespace) -> int:
    from tf1compat.shared.option_table import markdown_table

    if args.table:
        print(markdown_table(), end="")
        return 0
    from modern.code_text import portable_code
    from modern.config import ConfigureReport, ReportRow
    from modern.inventory import Inventory, detect
    from modern.planning import Status, plan
    from tf1compat.shared.options import SessionOptions
    from tf1compat.shared.proto_conversion import proto_text

    flags = options_from_args(args)
    options = SessionOptions.coerce(_read_config(args.config), **flags.to_kwargs()) \
        if args.config else flags
    if args.simulate_gpus is not None:
        inventory = Inventory.simulated(args.simulate_gpus, args.gpu_memory_mib,
                                        {k: v for k, v in os.environ.items()
                                         if k == "TF_FORCE_GPU_ALLOW_GROWTH"})
    else:
        inventory = detect()
    planned = plan(options, inventory=inventory)
    tf1_text = proto_text(options.to_config_proto()) or "# (empty ConfigProto)\n"
    tf2_code = portable_code(options)
    report = ConfigureReport([ReportRow(p.keyword, p.value, p.status, p.code, p.detail)
                              for p in planned])
    machine = (f"{len(inventory.gpus)} simulated GPU(s)" if args.simulate_gpus is not None
               else f"this machine: {len(inventory.gpus)} GPU(s)")
    if args.json:
        # tf2_code is portable; "options" is the status on the machine, with the
        # calls written out for it.
        print(json.dumps({"config_proto": tf1_text, "tf2_code": tf2_code,
                          "options": report.to_dict(), "machine": machine,
                          "machine_gpus": len(inventory.gpus)}, indent=2))
        return 0
    print(side_by_side(tf1_text, tf2_code, "TF1: ConfigProto (text format)",
                       "TF2: code (the same on every machine)"))
    print()
    print(f"Status on {machine}:")
    print(textwrap.indent(str(report), "  "))
    if args.simulate_gpus is None and not inventory.gpus and \
            any(p.status is Status.NOT_APPLICABLE for p in planned):
        print("\nFor the status on a machine with GPUs, add --simulate-gpus N "
              "(and --gpu-memory-mib MIB).")
    return 0
