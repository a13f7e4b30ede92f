"""`configure(...)` applies TF1 session options the TF2 way; `explain(...)` shows the code.

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
import os
import textwrap
from typing import Any, Callable, Optional

from modern import runtime
from modern.inventory import Inventory
from modern.planning import PlannedOption, Status, Step, plan
from tf1compat.errors import RuntimeAlreadyInitializedError
from tf1compat.options import SessionOptions

# Calls TF2 accepts at any time; every other one is fixed once the runtime starts.
_CHANGEABLE_AFTER_START = frozenset({"set_soft_device_placement", "set_log_device_placement",
                                     "set_jit"})


def _apply(step: Step) -> None:
    import tensorflow as tf

    action, args = step.action, step.args
    if action == "set_visible_gpus":
        gpus = tf.config.list_physical_devices("GPU")
        tf.config.set_visible_devices([gpus[i] for i in args[0]], "GPU")
    elif action == "set_memory_growth":
        tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("GPU")[args[0]],
                                                 args[1])
    elif action == "set_gpu_logical_devices":
        gpu = tf.config.list_physical_devices("GPU")[args[0]]
        tf.config.set_logical_device_configuration(
            gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=limit) for limit in args[1]])
    elif action == "set_cpu_logical_devices":
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(args[0])])
    elif action == "set_intra_op_threads":
        tf.config.threading.set_intra_op_parallelism_threads(args[0])
    elif action == "set_inter_op_threads":
        tf.config.threading.set_inter_op_parallelism_threads(args[0])
    elif action == "set_soft_device_placement":
        tf.config.set_soft_device_placement(args[0])
    elif action == "set_log_device_placement":
        tf.debugging.set_log_device_placement(args[0])
    elif action == "set_jit":
        tf.config.optimizer.set_jit(args[0])
    elif action == "set_environ":
        os.environ[args[0]] = args[1]
    else:
        raise AssertionError(f"no executor for {action}")


def _in_effect(step: Step) -> bool:
    """Whether the runtime already has what `step` would set."""
    import tensorflow as tf

    action, args = step.action, step.args
    gpus = tf.config.list_physical_devices("GPU")
    if action == "set_visible_gpus":
        visible = tf.config.get_visible_devices("GPU")
        return [gpus.index(d) for d in visible] == list(args[0])
    if action == "set_memory_growth":
        return tf.config.experimental.get_memory_growth(gpus[args[0]]) == args[1]
    if action in ("set_gpu_logical_devices", "set_cpu_logical_devices"):
        device = gpus[args[0]] if action == "set_gpu_logical_devices" else \
            tf.config.list_physical_devices("CPU")[0]
        configs = tf.config.get_logical_device_configuration(device) or []
        if action == "set_cpu_logical_devices":
            return len(configs) == args[0]
        return [c.memory_limit for c in configs] == list(args[1])
    if action == "set_intra_op_threads":
        return tf.config.threading.get_intra_op_parallelism_threads() == args[0]
    if action == "set_inter_op_threads":
        return tf.config.threading.get_inter_op_parallelism_threads() == args[0]
    if action == "set_environ":
        return os.environ.get(args[0]) == args[1]
    return False


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
        return [dict(option=row.keyword, value=_plain(row.value), status=row.status.value,
                     code=row.code, detail=row.detail) for row in self.rows]

    def __str__(self) -> str:
        """Per option: a line `keyword = value  [status]`, then its code and detail, indented."""
        if not self.rows:
            return "(no option set)"
        blocks = []
        for row in self.rows:
            lines = [f"{row.keyword} = {_plain(row.value)!r}  [{row.status.value}]"]
            lines += [f"    {line}" for line in row.code.splitlines()]
            lines += [f"    # {line}" for line in textwrap.wrap(row.detail, 88)]
            blocks.append("\n".join(lines))
        return "\n".join(blocks)

    def __repr__(self) -> str:
        return f"ConfigureReport({[(r.keyword, r.status.value) for r in self.rows]})"


def _plain(value: Any) -> Any:
    return getattr(value, "value", value) if not isinstance(value, (bool, int, float)) else value


def _already_started_error(blocking: list[PlannedOption]) -> RuntimeAlreadyInitializedError:
    where = runtime.first_initializer()
    started = f"at {where}" if where else "before modern.configure() was called"
    names = ", ".join(f"{row.keyword}={_plain(row.value)!r}" for row in blocking)
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
      GpuMemoryUnknownError: memory_fraction, and no way to read GPU memory.
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
                    if any(step.action not in _CHANGEABLE_AFTER_START and not _in_effect(step)
                           for step in row.steps)]
        if blocking:
            raise _already_started_error(blocking)
    for row in planned:
        detail = row.detail
        for step in row.steps:
            if started and step.action not in _CHANGEABLE_AFTER_START:
                detail = (detail + "; " if detail else "") + "already in effect"
                continue
            _run_step(step, row)
        rows.append(ReportRow(row.keyword, row.value, row.status, row.code, detail))
    return ConfigureReport(rows)


def _run_step(step: Step, row: PlannedOption) -> None:
    try:
        _apply(step)
    except RuntimeError as error:
        if runtime.is_initialized():  # started by another thread meanwhile
            raise _already_started_error([row]) from None
        raise RuntimeAlreadyInitializedError(
            f"TensorFlow refused {step.code!r} for {row.keyword}={_plain(row.value)!r}: "
            f"{error}") from None


def explain(options: Any = None, /, inventory: Optional[Inventory] = None,
            **keywords: Any) -> str:
    """Returns runnable TF2 code that applies the options, with a comment per status.

    >>> print(explain(cpus=2, inventory=Inventory.simulated(0)).splitlines()[-1])
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    """
    planned = plan(options, inventory=inventory, **keywords)
    return code_for(planned)


def code_for(planned: list[PlannedOption]) -> str:
    """The TF2 program text for planned options."""
    actions = {step.action for row in planned for step in row.steps}
    lines = []
    if "set_environ" in actions:
        lines.append("import os")
    lines.append("import tensorflow as tf")
    lines.append("")
    if actions & {"set_visible_gpus", "set_memory_growth", "set_gpu_logical_devices"}:
        lines.append("gpus = tf.config.list_physical_devices('GPU')")
    if "set_cpu_logical_devices" in actions:
        lines.append("cpus = tf.config.list_physical_devices('CPU')")
    for row in planned:
        value = _plain(row.value)
        if row.status is not Status.APPLIED or not row.steps:
            note = f": {row.detail}" if row.detail else ""
            lines.append(f"# {row.keyword}={value!r}: {row.status.value}{note}")
        lines.extend(step.code for step in row.steps)
    return "\n".join(lines) + "\n"
