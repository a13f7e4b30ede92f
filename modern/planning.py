"""`plan(options, inventory)`: the ordered TF2 calls for TF1 session options.

Pure: it reads the options and a machine description and runs nothing, so a
plan for a 4-GPU machine can be computed (and tested) on a laptop.

Each option becomes one `PlannedOption`: its TF2 calls (as data and as code
text) and a status: applied, approximated (TF2 has no exact equivalent; the
closest one is used and the detail says how it differs), not applicable on
this machine, or unsupported.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Optional

from modern.inventory import Inventory
from tf1compat.errors import DeviceError, GpuMemoryUnknownError
from tf1compat.options import JitLevel, SessionOptions


class Status(str, enum.Enum):
    APPLIED = "applied"
    APPROXIMATED = "approximated"
    NOT_APPLICABLE = "not applicable"
    UNSUPPORTED = "unsupported"


@dataclasses.dataclass(frozen=True)
class Step:
    """One TF2 call: `action` and `args` for the executor, `code` for people."""

    action: str
    args: tuple
    code: str


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


def _gpu_ref(index: int) -> str:
    return f"gpus[{index}]"


def _logical(limits) -> str:
    configs = ", ".join(f"tf.config.LogicalDeviceConfiguration(memory_limit={limit})"
                        for limit in limits)
    return f"[{configs}]"


def check_fits(index: int, limits: tuple, inventory: Inventory) -> None:
    """Raises DeviceError when logical devices need more memory than GPU `index` has."""
    total = inventory.gpu(index).memory_total_mib
    if total is not None and sum(limits) > total:
        raise DeviceError(
            f"virtual_gpus asks {sum(limits)} MiB in all on GPU {index}, which has "
            f"{total} MiB; accepted: memory limits whose sum is at most {total}")


def logical_step(index: int, limits: tuple) -> Step:
    return Step("set_gpu_logical_devices", (index, tuple(limits)),
                f"tf.config.set_logical_device_configuration({_gpu_ref(index)}, {_logical(limits)})")


class _Planner:
    def __init__(self, options: SessionOptions, inventory: Inventory):
        self.options = options
        self.inventory = inventory
        self.rows: list[PlannedOption] = []
        self.gpus = self._effective_gpus()
        # physical GPU index -> memory limits (MiB) of its logical devices
        self.logical: dict[int, tuple] = {}

    def add(self, keyword: str, status: Status, steps=(), detail: str = "",
            value: Any = None) -> None:
        if value is None:
            value = getattr(self.options, keyword, None)
        self.rows.append(PlannedOption(keyword, value, status, tuple(steps), detail))

    def _no_gpu(self, keyword: str, why: str = "") -> None:
        self.add(keyword, Status.NOT_APPLICABLE, detail=why or self._why_no_gpu())

    def _why_no_gpu(self) -> str:
        if not self.inventory.gpus:
            return "this machine has no GPU"
        return "no GPU is visible (gpus=0)"

    def _effective_gpus(self) -> tuple[int, ...]:
        """Physical indices of the GPUs the options leave visible, in TF1's order."""
        available = self.inventory.gpu_indices
        chosen = available
        visible = self.options.visible_gpus
        if visible is not None and available:
            missing = [i for i in visible if i not in available]
            if missing:
                raise DeviceError(
                    f"visible_gpus={visible!r} asks for GPU {missing[0]}, but this machine's "
                    f"GPUs are {list(available)}; accepted: indices among those")
            chosen = visible
        if self.options.gpus is not None:
            chosen = chosen[: self.options.gpus]
        return tuple(chosen)

    # -- one method per option, called in the order TF2 needs them --------

    def visible(self) -> None:
        opts = self.options
        for keyword in ("visible_gpus", "gpus"):
            if not opts.is_set(keyword):
                continue
            if not self.inventory.gpus:
                self._no_gpu(keyword)
                continue
            if keyword == "gpus" and opts.visible_gpus is not None:
                self.add(keyword, Status.APPLIED, detail="combined with visible_gpus above")
                continue
            indices = self.gpus
            refs = ", ".join(_gpu_ref(i) for i in indices)
            step = Step("set_visible_gpus", (tuple(sorted(indices)),),
                        f"tf.config.set_visible_devices([{refs}], 'GPU')")
            status, detail = Status.APPLIED, ""
            if list(indices) != sorted(indices):
                status = Status.APPROXIMATED
                detail = ("TF1 renumbers GPUs in the order listed; TF2 keeps physical order, so "
                          f"/gpu:0 is physical GPU {min(indices)}, not {indices[0]}")
            self.add(keyword, status, [step], detail)

    def virtual(self) -> None:
        virtual = self.options.virtual_gpus
        if virtual is None:
            return
        if not self.gpus:
            return self._no_gpu("virtual_gpus")
        if len(virtual) > len(self.gpus):
            raise DeviceError(
                f"virtual_gpus has {len(virtual)} entries (one per visible GPU), but only "
                f"{len(self.gpus)} GPU(s) are visible: {list(self.gpus)}; accepted: at most "
                f"{len(self.gpus)} entries")
        steps = []
        for index, limits in zip(self.gpus, virtual):
            check_fits(index, limits, self.inventory)
            self.logical[index] = tuple(limits)
            steps.append(logical_step(index, limits))
        self.add("virtual_gpus", Status.APPLIED, steps)

    def fraction(self) -> None:
        fraction = self.options.memory_fraction
        if fraction is None:
            return
        if not self.gpus:
            return self._no_gpu("memory_fraction")
        steps, skipped = [], []
        for index in self.gpus:
            if index in self.logical:
                skipped.append(index)
                continue
            total = self.inventory.gpu(index).memory_total_mib
            if total is None:
                raise GpuMemoryUnknownError(
                    f"memory_fraction={fraction} needs GPU {index}'s total memory, and neither "
                    "NVML (pip install nvidia-ml-py) nor nvidia-smi could report it; give "
                    "virtual_gpus=[[MiB]] instead, or install the NVIDIA driver tools")
            limit = int(fraction * total)
            self.logical[index] = (limit,)
            step = logical_step(index, (limit,))
            steps.append(dataclasses.replace(
                step, code=f"{step.code}  # {fraction} x {total} MiB"))
        detail = "one logical device per GPU, memory_limit = fraction x total memory"
        if skipped:
            detail += f"; GPUs {skipped} use their virtual_gpus limits instead, as in TF1"
        self.add("memory_fraction", Status.APPLIED if steps else Status.NOT_APPLICABLE,
                 steps, detail)

    def growth(self) -> None:
        growth = self.options.growth
        if growth is None:
            return
        if not self.gpus:
            return self._no_gpu("growth")
        forced = self.inventory.environ.get("TF_FORCE_GPU_ALLOW_GROWTH")
        if forced is not None and (forced.lower() == "true") != growth:
            return self.add("growth", Status.APPROXIMATED, detail=(
                f"TF_FORCE_GPU_ALLOW_GROWTH={forced} in the environment overrides growth={growth}"
                " in both TF1 and TF2; unset it to honour this option"))
        if self.logical:
            if not growth:
                return self.add("growth", Status.APPLIED,
                                detail="no growth is TF's default for logical devices")
            step = Step("set_environ", ("TF_FORCE_GPU_ALLOW_GROWTH", "true"),
                        "os.environ['TF_FORCE_GPU_ALLOW_GROWTH'] = 'true'  # before the first op")
            return self.add("growth", Status.APPROXIMATED, [step], (
                "TF2 refuses set_memory_growth on a GPU with logical devices; growth up to each "
                "memory limit is asked through TF_FORCE_GPU_ALLOW_GROWTH, which is process-wide"))
        steps = [Step("set_memory_growth", (index, growth),
                      f"tf.config.experimental.set_memory_growth({_gpu_ref(index)}, {growth})")
                 for index in self.gpus]
        self.add("growth", Status.APPLIED, steps)

    def cpus(self) -> None:
        count = self.options.cpus
        if count is None:
            return
        if count == 1:
            return self.add("cpus", Status.APPLIED, detail="one CPU device is TF's default")
        configs = "[tf.config.LogicalDeviceConfiguration()] * " + str(count)
        self.add("cpus", Status.APPLIED, [Step(
            "set_cpu_logical_devices", (count,),
            f"tf.config.set_logical_device_configuration(cpus[0], {configs})")])

    def scalars(self) -> None:
        opts = self.options
        simple = (
            ("intra_op_threads", "set_intra_op_threads",
             "tf.config.threading.set_intra_op_parallelism_threads({})"),
            ("inter_op_threads", "set_inter_op_threads",
             "tf.config.threading.set_inter_op_parallelism_threads({})"),
            ("soft_placement", "set_soft_device_placement", "tf.config.set_soft_device_placement({})"),
            ("log_placement", "set_log_device_placement",
             "tf.debugging.set_log_device_placement({})"),
        )
        for keyword, action, template in simple:
            value = getattr(opts, keyword)
            if value is not None:
                self.add(keyword, Status.APPLIED, [Step(action, (value,), template.format(value))])
        if opts.jit is not None:
            value: Any = False if opts.jit is JitLevel.OFF else "autoclustering"
            step = Step("set_jit", (value,), f"tf.config.optimizer.set_jit({value!r})")
            if opts.jit is JitLevel.ON_2:
                self.add("jit", Status.APPROXIMATED, [step],
                         "ON_2 has no TF2 API; autoclustering is TF2's only global JIT level")
            else:
                self.add("jit", Status.APPLIED, [step])

    def passthrough(self) -> None:
        if not self.options.passthrough:
            return
        from tensorflow.core.protobuf import config_pb2

        from tf1compat.proto_conversion import set_field_paths

        fields = set_field_paths(config_pb2.ConfigProto.FromString(self.options.passthrough))
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
      GpuMemoryUnknownError: memory_fraction without a way to read total memory.

    >>> [(p.keyword, p.status.value) for p in plan(growth=True, inventory=Inventory.simulated(0))]
    [('growth', 'not applicable')]
    """
    resolved = SessionOptions.coerce(options, **keywords)
    if inventory is None:
        from modern.inventory import detect

        inventory = detect()
    planner = _Planner(resolved, inventory)
    planner.visible()
    planner.virtual()
    planner.fraction()
    planner.growth()
    planner.cpus()
    planner.scalars()
    planner.passthrough()
    return planner.rows
