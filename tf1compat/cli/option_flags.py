"""Command-line flags for every option of the table, shared by the CLI verbs.

The flags are built from `tf1compat.option_table`, so a new option gets its
flag, and every verb that takes options (explain, run, launch) gets it too.
Values are handed to `SessionOptions` as typed, so bad ones get its errors.
"""

from __future__ import annotations

import argparse
from typing import Any

from tf1compat.option_table import OPTION_SPECS
from tf1compat.options import SessionOptions

_BOOLEAN = {"log_placement", "soft_placement", "growth"}
_INTEGER = {"gpus", "cpus", "intra_op_threads", "inter_op_threads"}


def _flag(keyword: str) -> str:
    return "--" + keyword.replace("_", "-")


def _virtual_gpu_limits(text: str) -> list[float]:
    """'1024,2048' -> [1024.0, 2048.0] (the limits of one GPU's virtual GPUs)."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--virtual-gpus takes memory limits in MiB separated by commas, "
            f"e.g. 1024,1024; received {text!r}") from None


def _integer(text: str) -> Any:
    """An int when it is one; otherwise the text, so SessionOptions names the option."""
    try:
        return int(text)
    except ValueError:
        return text


def _number(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Adds one flag per option of the table (--growth, --memory-fraction, ...)."""
    group = parser.add_argument_group("session options (see `tf1compat explain --table`)")
    for spec in OPTION_SPECS:
        help_text = f"ConfigProto {spec.tf1_field}; {spec.accepted}"
        if spec.keyword in _BOOLEAN:
            group.add_argument(_flag(spec.keyword), dest=spec.keyword, default=None,
                               action=argparse.BooleanOptionalAction, help=help_text)
        elif spec.keyword == "virtual_gpus":
            group.add_argument(_flag(spec.keyword), dest=spec.keyword, default=None,
                               action="append", type=_virtual_gpu_limits, metavar="MIB,MIB",
                               help=help_text + "; repeat the flag once per GPU")
        elif spec.keyword in _INTEGER:
            group.add_argument(_flag(spec.keyword), dest=spec.keyword, default=None,
                               type=_integer, metavar="N", help=help_text)
        elif spec.keyword == "memory_fraction":
            group.add_argument(_flag(spec.keyword), dest=spec.keyword, default=None,
                               type=_number, metavar="F", help=help_text)
        else:
            group.add_argument(_flag(spec.keyword), dest=spec.keyword, default=None,
                               help=help_text)


def options_from_args(args: argparse.Namespace) -> SessionOptions:
    """The SessionOptions the flags in `args` describe (unset flags stay unset)."""
    keywords = {spec.keyword: getattr(args, spec.keyword) for spec in OPTION_SPECS
                if getattr(args, spec.keyword, None) is not None}
    return SessionOptions(**keywords)
