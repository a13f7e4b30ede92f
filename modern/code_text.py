"""TF2 program text: the code for this machine's plan, and the portable code for any machine.

`portable_code(options)` is what `tf1compat explain` prints and what a program
should contain: it loops over `tf.config.list_physical_devices('GPU')` and
reads a GPU's total memory at run time (`modern.memory_limit_mib`), so it is
the same text on a laptop and on a GPU server, and on a machine without GPUs
its loops simply do nothing. `machine_code(planned)` is the plan for one
machine, with its GPU indices and memory limits written out.
"""

from __future__ import annotations

from typing import Any, Iterable

from tf1compat.shared.option_spec import Status
from tf1compat.shared.option_table import PLAN_ORDER, SPECS_BY_KEYWORD
from tf1compat.shared.options import SessionOptions

_IMPORTS = (("os", "import os"), ("json", "import json"), ("", "import tensorflow as tf"),
            ("modern", "import modern"))
_SETUP = (("gpus", "gpus = tf.config.list_physical_devices('GPU')"),
          ("cpus", "cpus = tf.config.list_physical_devices('CPU')"))


def shown(keyword: str, value: Any) -> Any:
    """A value as the user writes it (JitLevel.ON_1 -> 'on_1')."""
    spec = SPECS_BY_KEYWORD.get(keyword)
    return spec.show(value) if spec is not None else value


def program(needs: Iterable[str], body: list[str]) -> str:
    """The imports and device lists that `needs` names, then `body`."""
    needs = set(needs)
    lines = [line for name, line in _IMPORTS if not name or name in needs]
    lines.append("")
    lines += [line for name, line in _SETUP if name in needs]
    return "\n".join(lines + body) + "\n"


def machine_code(planned: list) -> str:
    """The TF2 program text of a plan for one machine, with a comment per status."""
    needs: set[str] = set()
    body = []
    for row in planned:
        if row.status is not Status.APPLIED or not row.steps:
            note = f": {row.detail}" if row.detail else ""
            body.append(f"# {row.keyword}={shown(row.keyword, row.value)!r}: "
                        f"{row.status.value}{note}")
        for step in row.steps:
            needs |= step.needs
            body.append(step.code)
    return program(needs, body)


def portable_code(options: Any = None, /, **keywords: Any) -> str:
    """The TF2 code that applies TF1 options on any machine; the same text everywhere.

    >>> print(portable_code(growth=True).splitlines()[-1])
        tf.config.experimental.set_memory_growth(gpu, True)
    """
    resolved = SessionOptions.coerce(options, **keywords)
    needs: set[str] = set()
    body = []
    for spec in PLAN_ORDER:
        value = getattr(resolved, spec.keyword)
        if value is None:
            continue
        code = spec.portable(value, resolved)
        body.append(f"# {spec.keyword}={spec.show(value)!r}")
        body.extend(code.lines)
        needs |= code.needs
    if resolved.passthrough:
        from tf1compat.shared import tf_internals
        from tf1compat.shared.proto_conversion import set_field_paths

        config_proto = tf_internals.resolve(tf_internals.CONFIG_PROTOS, "ConfigProto")

        fields = set_field_paths(config_proto.FromString(resolved.passthrough))
        body.append("# ConfigProto fields with no TF2 call (TF1 sessions still honour them): "
                    + ", ".join(fields))
    return program(needs, body)
