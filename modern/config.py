"""`configure(...)` applies TF1 session options the TF2 way; `explain(...)` shows the code.

Each planned step applies itself and tells whether it is already in effect
(see `tf1compat.shared.option_spec.Step`), so nothing here knows one option from
another.

`modern.configure(growth=True)` means what `tf1compat.session(growth=True)`
means, for TF2 code. It runs the calls of `modern.plan` in order and returns a
`ConfigureReport`: one row per option with the call made and its status.

TF2 fixes device options when its runtime starts. `configure` checks that
first: if the runtime is already running, options that can still change are
applied, options already in effect are a no-op, and any other one raises
`RuntimeAlreadyInitializedError` naming the line that started the runtime.
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Any, Optional

from modern import runtime
from modern.code_text import machine_code, portable_code, shown
from modern.inventory import Inventory
from modern.planning import PlannedOption, Status, Step, plan
from tf1compat.shared.errors import RuntimeAlreadyInitializedError


@dataclasses.dataclass(frozen=True)
class ReportRow:
    keyword: str
    value: Any
    status: Status
    code: str
    detail: str = ""


class ConfigureReport:
    """What `configure` did: one row per option that was set."""

    def __init__(self, rows: list[ReportRow]):
        self.rows = rows

    def __getitem__(self, keyword: str) -> ReportRow:
        for row in self.rows:
            if row.keyword == keyword:
                return row
        raise KeyError(f"no option {keyword!r} in this report; it has "
                       f"{[row.keyword for row in self.rows]}")

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def to_dict(self) -> list[dict[str, Any]]:
        return [dict(option=row.keyword, value=shown(row.keyword, row.value),
                     status=row.status.value,
                     code=row.code, detail=row.detail) for row in self.rows]

    def __str__(self) -> str:
        """Per option: a line `keyword = value  [status]`, then its code and detail, indented."""
        if not self.rows:
            return "(no option set)"
        blocks = []
        for row in self.rows:
            lines = [f"{row.keyword} = {shown(row.keyword, row.value)!r}  [{row.status.value}]"]
            lines += [f"    {line}" for line in row.code.splitlines()]
            lines += [f"    # {line}" for line in textwrap.wrap(row.detail, 88)]
            blocks.append("\n".join(lines))
        return "\n".join(blocks)

    def __repr__(self) -> str:
        return f"ConfigureReport({[(r.keyword, r.status.value) for r in self.rows]})"


def _already_started_error(blocking: list[PlannedOption]) -> RuntimeAlreadyInitializedError:
    where = runtime.first_initializer()
    started = f"at {where}" if where else "before modern.configure() was called"
    names = ", ".join(f"{row.keyword}={shown(row.keyword, row.value)!r}" for row in blocking)
    return RuntimeAlreadyInitializedError(
        f"cannot apply {names}: TensorFlow's runtime was already started {started}, and TF2 "
        "fixes device and thread options when it starts. Fix: call modern.configure(...) "
        "at the top of the program, before the first TensorFlow op, "
        "tf.config.list_logical_devices() or get_memory_info()")


def configure(options: Any = None, /, inventory: Optional[Inventory] = None,
              **keywords: Any) -> ConfigureReport:
    """Applies TF1 session options to TF2: tf.config calls, in the right order.

    Call it at the top of the program, before the first TensorFlow op.
    Calling it again with the same values is a no-op.

    Args:
      options: `SessionOptions`, a `ConfigProto` (object, bytes, text) or None.
      inventory: the machine (default: detected).
      **keywords: option keywords, e.g. `growth=True, cpus=2`.

    Returns:
      A `ConfigureReport`: for each option, the TF2 code that was run and its
      status (applied, approximated, not applicable, unsupported).

    Raises:
      OptionError: a keyword or value is rejected.
      DeviceError: the options ask for devices or memory the machine lacks.
      GpuMemoryUnknownError: a memory fraction, and no way to read GPU memory.
      RuntimeAlreadyInitializedError: the runtime already started with other
        device or thread options; the message names where it started.
    """
    return apply(plan(options, inventory=inventory, **keywords))


def apply(planned: list[PlannedOption]) -> ConfigureReport:
    """Runs planned options (see `configure`), checking first whether the runtime started."""
    started = runtime.is_initialized()
    rows = []
    if started:
        blocking = [row for row in planned
                    if any(step.fixed_at_start and not step.already_in_effect()
                           for step in row.steps)]
        if blocking:
            raise _already_started_error(blocking)
    for row in planned:
        detail = row.detail
        for step in row.steps:
            if started and step.fixed_at_start:
                detail = (detail + "; " if detail else "") + "already in effect"
                continue
            _run_step(step, row)
        rows.append(ReportRow(row.keyword, row.value, row.status, row.code, detail))
    return ConfigureReport(rows)


def _run_step(step: Step, row: PlannedOption) -> None:
    try:
        step.apply()
    except RuntimeError as error:
        if runtime.is_initialized():  # started by another thread meanwhile
            raise _already_started_error([row]) from None
        raise RuntimeAlreadyInitializedError(
            f"TensorFlow refused {step.code!r} for "
            f"{row.keyword}={shown(row.keyword, row.value)!r}: "
            f"{error}") from None


def explain(options: Any = None, /, **keywords: Any) -> str:
    """Returns the TF2 code a program should contain for the options: the same on every machine.

    GPU options loop over `tf.config.list_physical_devices('GPU')` (nothing to
    do on a machine without GPUs), and a memory fraction's limit is computed at
    run time by `modern.memory_limit_mib`. `plan(...)` gives the status of each
    option on one machine, `code_for(plan(...))` its calls written out.

    >>> print(explain(cpus=2).splitlines()[-1])
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    """
    return portable_code(options, **keywords)


def code_for(planned: list[PlannedOption]) -> str:
    """The TF2 program text of a plan for one machine (its GPU indices and limits written out)."""
    return machine_code(planned)
