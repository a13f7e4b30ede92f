"""`plan(options, inventory)`: the ordered TF2 calls for TF1 session options.

Pure: it reads the options and a machine description and runs nothing, so a
plan for a 4-GPU machine can be computed (and tested) on a laptop.

Each option becomes one `PlannedOption`: its TF2 steps and a status: applied,
approximated (TF2 has no exact equivalent; the closest one is used and the
detail says how it differs), not applicable on this machine, or unsupported.
What each option plans is declared with the option (`tf1compat.shared.option_table`);
every step carries how to apply itself and how to tell it is in effect.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from modern.inventory import Inventory
from tf1compat.shared.gpu_steps import check_fits, logical_step
from tf1compat.shared.option_spec import Status, Step
from tf1compat.shared.option_table import PLAN_ORDER
from tf1compat.shared.options import SessionOptions

__all__ = ["PlannedOption", "Status", "Step", "check_fits", "logical_step", "plan"]


@dataclasses.dataclass(frozen=True)
class PlannedOption:
    keyword: str
    value: Any
    status: Status
    steps: tuple[Step, ...] = ()
    detail: str = ""

    @property
    def code(self) -> str:
        return "\n".join(step.code for step in self.steps)


class Planner:
    """What an option's `plan` reads (options, inventory, memo) and writes (`add`)."""

    def __init__(self, options: SessionOptions, inventory: Inventory):
        self.options = options
        self.inventory = inventory
        self.rows: list[PlannedOption] = []
        self.memo: dict[str, Any] = {}  # what the options share while planning

    def add(self, keyword: str, status: Status, steps=(), detail: str = "",
            value: Any = None) -> None:
        if value is None:
            value = getattr(self.options, keyword, None)
        self.rows.append(PlannedOption(keyword, value, status, tuple(steps), detail))

    def passthrough(self) -> None:
        if not self.options.passthrough:
            return
        from tf1compat.shared import tf_internals
        from tf1compat.shared.proto_conversion import set_field_paths

        config_proto = tf_internals.resolve(tf_internals.CONFIG_PROTOS, "ConfigProto")

        fields = set_field_paths(config_proto.FromString(self.options.passthrough))
        self.add("passthrough", Status.UNSUPPORTED, value=fields, detail=(
            "ConfigProto fields with no TF2 call; TF1 sessions still honour them: "
            + ", ".join(fields)))


def plan(options: Any = None, /, inventory: Optional[Inventory] = None,
         **keywords: Any) -> list[PlannedOption]:
    """Returns the TF2 calls for TF1 options, in the order they must run. Runs nothing.

    Args:
      options: `SessionOptions`, a ConfigProto (object, bytes, text), or None.
      inventory: the machine to plan for; `Inventory.simulated(gpus=4)` for a
        made-up one. Defaults to this machine (`modern.inventory.detect()`).
      **keywords: option keywords, e.g. `growth=True`.

    Returns:
      One `PlannedOption` per option that is set.

    Raises:
      OptionError: a keyword or value is rejected.
      DeviceError: the options ask for GPUs or memory the machine lacks.
      GpuMemoryUnknownError: a memory fraction without a way to read total memory.

    >>> [(p.keyword, p.status.value) for p in plan(growth=True, inventory=Inventory.simulated(0))]
    [('growth', 'not applicable')]
    """
    resolved = SessionOptions.coerce(options, **keywords)
    if inventory is None:
        from modern.inventory import detect

        inventory = detect()
    planner = Planner(resolved, inventory)
    for spec in PLAN_ORDER:
        if resolved.is_set(spec.keyword):
            spec.plan(planner)
    planner.passthrough()
    return planner.rows
