"""Command-line flags for every option of the table, shared by the CLI verbs.

The flags are built from the option declarations (`tf1compat.shared.option_table`),
so a new option gets its flag, and every verb that takes options (explain,
run, launch) gets it too. Values are handed to `SessionOptions` as typed, so
bad ones get its errors.
"""

from __future__ import annotations

import argparse

from tf1compat.shared.option_table import OPTION_SPECS
from tf1compat.shared.options import SessionOptions


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Adds one flag per option of the table (--growth, --cpus, ...)."""
    group = parser.add_argument_group("session options (see `tf1compat explain --table`)")
    for spec in OPTION_SPECS:
        group.add_argument(spec.flag_name(), dest=spec.keyword, default=None,
                           help=f"ConfigProto {spec.tf1_field}; {spec.accepted}"
                                f"{spec.flag.help_extra}",
                           **spec.flag.argparse_keywords())


def options_from_args(args: argparse.Namespace) -> SessionOptions:
    """The SessionOptions the flags in `args` describe (unset flags stay unset)."""
    keywords = {spec.keyword: getattr(args, spec.keyword) for spec in OPTION_SPECS
                if getattr(args, spec.keyword, None) is not None}
    return SessionOptions(**keywords)
