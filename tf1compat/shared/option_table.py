"""The option table: every declared option, in the order the docs list them.

`SessionOptions` takes its keywords from here, the ConfigProto conversion its
fields, the command line its flags, `modern.plan` its TF2 steps, and
`tf1compat explain --table` prints the README's table from here, so none of
them can disagree. To add an option, declare it (see `tf1compat.shared.option_spec`)
in the module of its kind; the table gathers them.
"""

from __future__ import annotations

from tf1compat.shared import option_gpu, option_graph, option_runtime
from tf1compat.shared.option_spec import OptionSpec


OPTION_SPECS: tuple[OptionSpec, ...] = tuple(sorted(
    option_gpu.SPECS + option_runtime.SPECS + option_graph.SPECS,
    key=lambda spec: spec.table_order))

SPECS_BY_KEYWORD: dict[str, OptionSpec] = {spec.keyword: spec for spec in OPTION_SPECS}

# The order TF2 needs the calls in (visible devices, logical devices, growth, ...).
PLAN_ORDER: tuple[OptionSpec, ...] = tuple(sorted(OPTION_SPECS, key=lambda spec: spec.plan_order))


def _aliases() -> dict[str, str]:
    """ConfigProto names people type as keywords -> our keyword(s), for error messages."""
    found: dict[str, list[str]] = {}
    for spec in OPTION_SPECS:
        for name in spec.tf1_names:
            found.setdefault(name, []).append(spec.keyword)
    return {name: " / ".join(keywords) for name, keywords in found.items()}


TF1_NAME_ALIASES: dict[str, str] = _aliases()


def markdown_table() -> str:
    """Returns the option table as the Markdown the README embeds."""
    lines = [
        "| ConfigProto field | keyword | TF2 equivalent | what to know |",
        "|---|---|---|---|",
    ]
    for spec in OPTION_SPECS:
        lines.append(
            f"| `{spec.tf1_field}` | `{spec.keyword}` | `{spec.tf2_call}` | {spec.note} |"
        )
    return "\n".join(lines) + "\n"
