"""The GPU options, each declared once: which GPUs, how they split, how memory grows.

TF2 needs these in one order (visible devices, then logical devices, then
growth), and they depend on each other: virtual GPUs are listed per visible
GPU, a memory fraction skips GPUs that virtual GPUs already split, and growth
cannot be set on a GPU with logical devices. That is why they are declared
side by side; the planner keeps what they share in `planner.memo`.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any, Iterable

from tf1compat.shared.errors import DeviceError, GpuMemoryUnknownError
from tf1compat.shared.gpu_steps import (
    GPUS, check_fits, growth_step, logical, logical_step, no_gpu, visible, visible_step)
from tf1compat.shared.option_spec import (
    BOOL_FLAG, INT_FLAG, Flag, MapEntry, OptionSpec, Portable, Reject, Scalar, Status,
    check_bool, check_int_at_least, environ_step)


# -- visible_gpus and gpus -------------------------------------------------


def _gpu_index(raw: Any, reject: Reject) -> int:
    if isinstance(raw, str):
        if not raw.strip().lstrip("-").isdigit():
            reject(f"{raw!r} is not a GPU index")
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, numbers.Integral):
        reject(f"{raw!r} is not a GPU index")
    if raw < 0:
        reject(f"{raw} is negative")
    return int(raw)


def _check_visible(value: Any, reject: Reject):
    if isinstance(value, str):
        if not value.strip():
            return None  # TF1's empty visible_device_list means "all GPUs".
        items: Iterable[Any] = value.split(",")
    elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
        items = [value]
    elif isinstance(value, (list, tuple, range)):
        items = value
    else:
        reject()
    indices = tuple(_gpu_index(item, reject) for item in items)
    if not indices:
        reject("use gpus=0 to hide every GPU")
    duplicates = sorted({i for i in indices if indices.count(i) > 1})
    if duplicates:
        reject(f"GPU index {duplicates[0]} appears more than once")
    return indices


def _plan_visible(keyword: str):
    def plan(planner) -> None:
        options = planner.options
        if not planner.inventory.gpus:
            return no_gpu(planner, keyword)
        if keyword == "gpus" and options.visible_gpus is not None:
            return planner.add(keyword, Status.APPLIED, detail="combined with visible_gpus above")
        indices = visible(planner)
        step = visible_step(indices)
        status, detail = Status.APPLIED, ""
        if list(indices) != sorted(indices):
            status = Status.APPROXIMATED
            detail = ("TF1 renumbers GPUs in the order listed; TF2 keeps physical order, so "
                      f"/gpu:0 is physical GPU {min(indices)}, not {indices[0]}")
        planner.add(keyword, status, [step], detail)

    return plan


def _portable_visible(value: tuple, options) -> Portable:
    return Portable((f"gpus = [gpu for index, gpu in enumerate(gpus) if index in {value!r}]",
                     "tf.config.set_visible_devices(gpus, 'GPU')"), GPUS)


def _portable_count(value: int, options) -> Portable:
    return Portable((f"gpus = gpus[:{value}]", "tf.config.set_visible_devices(gpus, 'GPU')"), GPUS)


# -- virtual_gpus -------------------------------------------------------------


def _memory_limit(limit: Any, reject: Reject):
    if limit is None:
        reject("every virtual GPU needs a memory limit in MiB")
    if isinstance(limit, bool) or not isinstance(limit, numbers.Real):
        reject(f"memory limit {limit!r} is not a number of MiB")
    if math.isnan(float(limit)) or limit <= 0:
        reject(f"memory limit {limit!r} is not > 0")
    return int(limit) if float(limit).is_integer() else float(limit)


def _check_virtual(value: Any, reject: Reject):
    if not isinstance(value, (list, tuple)) or not value:
        reject()
    per_gpu = []
    for limits in value:
        if isinstance(limits, numbers.Real) and not isinstance(limits, bool):
            reject(f"wrap the limits of one GPU in a list: virtual_gpus=[{list(value)!r}]")
        if not isinstance(limits, (list, tuple)) or not limits:
            reject("every virtual GPU needs a memory limit in MiB")
        per_gpu.append(tuple(_memory_limit(limit, reject) for limit in limits))
    return tuple(per_gpu)


@dataclasses.dataclass(frozen=True)
class VirtualDevices:
    """gpu_options.experimental.virtual_devices[*].memory_limit_mb, one entry per GPU."""

    path: str = "gpu_options.experimental.virtual_devices"
    same_value = False  # a message in the proto, plain values as a keyword

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,)

    def read(self, proto):
        devices = proto.gpu_options.experimental.virtual_devices
        found = tuple(tuple(v.memory_limit_mb) for v in devices)
        return found or None

    def write(self, proto, value) -> None:
        devices = proto.gpu_options.experimental.virtual_devices
        for index, limits in enumerate(value):
            entry = devices[index] if index < len(devices) else devices.add()
            entry.ClearField("memory_limit_mb")
            entry.memory_limit_mb.extend(limits)

    def clear(self, proto) -> None:
        experimental = proto.gpu_options.experimental
        for virtual in experimental.virtual_devices:
            virtual.ClearField("memory_limit_mb")
        if not any(v.ByteSize() for v in experimental.virtual_devices):
            experimental.ClearField("virtual_devices")


def _plan_virtual(planner) -> None:
    virtual, gpus = planner.options.virtual_gpus, visible(planner)
    if not gpus:
        return no_gpu(planner, "virtual_gpus")
    if len(virtual) > len(gpus):
        raise DeviceError(
            f"virtual_gpus has {len(virtual)} entries (one per visible GPU), but only "
            f"{len(gpus)} GPU(s) are visible: {list(gpus)}; accepted: at most {len(gpus)} entries")
    steps = []
    for index, limits in zip(gpus, virtual):
        check_fits(index, limits, planner.inventory)
        logical(planner)[index] = tuple(limits)
        steps.append(logical_step(index, limits))
    planner.add("virtual_gpus", Status.APPLIED, steps)


def _portable_virtual(value: tuple, options) -> Portable:
    return Portable((
        f"for gpu, limits in zip(gpus, {[list(limits) for limits in value]!r}):",
        "    tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=mib) for mib in limits])"), GPUS)


# -- memory_fraction -----------------------------------------------------------


def _check_fraction(value: Any, reject: Reject) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        reject()
    fraction = float(value)
    if math.isnan(fraction) or not 0.0 < fraction <= 1.0:
        reject()
    return fraction


def _plan_fraction(planner) -> None:
    fraction, gpus = planner.options.memory_fraction, visible(planner)
    if not gpus:
        return no_gpu(planner, "memory_fraction")
    steps, skipped = [], []
    for index in gpus:
        if index in logical(planner):
            skipped.append(index)
            continue
        total = planner.inventory.gpu(index).memory_total_mib
        if total is None:
            raise GpuMemoryUnknownError(
                f"memory_fraction={fraction} needs GPU {index}'s total memory, and neither "
                "NVML (pip install 'nvidia-ml-py>=12') nor nvidia-smi could report it; give "
                "virtual_gpus=[[MiB]] instead, or install the NVIDIA driver tools")
        limit = int(fraction * total)
        logical(planner)[index] = (limit,)
        step = logical_step(index, (limit,))
        steps.append(dataclasses.replace(step, code=f"{step.code}  # {fraction} x {total} MiB"))
    detail = "one logical device per GPU, memory_limit = fraction x total memory"
    if skipped:
        detail += f"; GPUs {skipped} use their virtual_gpus limits instead, as in TF1"
    planner.add("memory_fraction", Status.APPLIED if steps else Status.NOT_APPLICABLE, steps,
                detail)


def _portable_fraction(value: float, options) -> Portable:
    skip = len(options.virtual_gpus or ())
    return Portable((
        "# one logical device per GPU, its limit read from the GPU's total memory at run time",
        f"for gpu in gpus{f'[{skip}:]' if skip else ''}:",
        "    tf.config.set_logical_device_configuration(gpu, [tf.config.LogicalDeviceConfiguration("
        f"memory_limit=modern.memory_limit_mib(gpu, {value!r}))])"), GPUS | {"modern"})


# -- growth --------------------------------------------------------------------

_GROWTH_BY_ENVIRONMENT = ("TF2 refuses set_memory_growth on a GPU with logical devices; growth "
                          "up to each memory limit is asked through TF_FORCE_GPU_ALLOW_GROWTH, "
                          "which is process-wide")


def _plan_growth(planner) -> None:
    growth = planner.options.growth
    if not visible(planner):
        return no_gpu(planner, "growth")
    forced = planner.inventory.environ.get("TF_FORCE_GPU_ALLOW_GROWTH")
    if forced is not None and (forced.lower() == "true") != growth:
        return planner.add("growth", Status.APPROXIMATED, detail=(
            f"TF_FORCE_GPU_ALLOW_GROWTH={forced} in the environment overrides growth={growth}"
            " in both TF1 and TF2; unset it to honour this option"))
    if logical(planner):
        if not growth:
            return planner.add("growth", Status.APPLIED,
                               detail="no growth is TF's default for logical devices")
        return planner.add("growth", Status.APPROXIMATED,
                           [environ_step("TF_FORCE_GPU_ALLOW_GROWTH", "true")],
                           _GROWTH_BY_ENVIRONMENT)
    steps = [growth_step(index, growth) for index in visible(planner)]
    planner.add("growth", Status.APPLIED, steps)


def _portable_growth(value: bool, options) -> Portable:
    if options.memory_fraction is not None or options.virtual_gpus is not None:
        if not value:
            return Portable(("# no growth is TF's default for logical devices",))
        step = environ_step("TF_FORCE_GPU_ALLOW_GROWTH", "true")
        return Portable((f"# {_GROWTH_BY_ENVIRONMENT}", step.code), step.needs)
    return Portable(("for gpu in gpus:",
                     f"    tf.config.experimental.set_memory_growth(gpu, {value})"), GPUS)


# -- allocator_type ---------------------------------------------------------------

_ALLOCATORS = {"bfc": "BFC"}


def _check_allocator(value: Any, reject: Reject) -> str:
    if not isinstance(value, str) or value.strip().lower() not in _ALLOCATORS:
        reject("TF_GPU_ALLOCATOR=cuda_malloc_async picks TF2's other allocator; TensorFlow "
               "rejects any other allocator_type")
    return _ALLOCATORS[value.strip().lower()]


def _plan_allocator(planner) -> None:
    value = planner.options.allocator_type
    if not visible(planner):
        return no_gpu(planner, "allocator_type")
    chosen = planner.inventory.environ.get("TF_GPU_ALLOCATOR")
    if chosen and chosen.lower() != value.lower():
        return planner.add("allocator_type", Status.APPROXIMATED, detail=(
            f"TF_GPU_ALLOCATOR={chosen} in the environment replaces allocator_type={value!r} "
            "in both TF1 sessions and TF2; unset it to honour this option"))
    planner.add("allocator_type", Status.APPLIED,
                detail=f"{value} is TF2's default GPU allocator while TF_GPU_ALLOCATOR is unset")


def _portable_allocator(value: str, options) -> Portable:
    return Portable((f"# {value} is TF2's default GPU allocator: nothing to call "
                     "(TF_GPU_ALLOCATOR=cuda_malloc_async would replace it)",))


SPECS = (
    OptionSpec(
        "growth", Scalar("gpu_options.allow_growth"), check_bool, "True or False",
        "tf.config.experimental.set_memory_growth(gpu, True) for each visible GPU",
        "must be equal on all GPUs; TF2 refuses it on a GPU with logical devices "
        "(then honoured through TF_FORCE_GPU_ALLOW_GROWTH); that variable overrides both worlds",
        BOOL_FLAG, _plan_growth, _portable_growth, table_order=3, plan_order=40,
        tf1_names=("allow_growth",), process_wide_default=False),
    OptionSpec(
        "memory_fraction", Scalar("gpu_options.per_process_gpu_memory_fraction"), _check_fraction,
        "a number greater than 0 and at most 1",
        "tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=fraction * total_mib)])",
        "no TF2 call takes a fraction: total memory comes from NVML or nvidia-smi "
        "(`modern.memory_limit_mib(gpu, fraction)` at run time)",
        Flag("number", "F"), _plan_fraction, _portable_fraction, table_order=4, plan_order=30,
        tf1_names=("per_process_gpu_memory_fraction",), process_wide_default=None),
    OptionSpec(
        "visible_gpus", Scalar("gpu_options.visible_device_list",
                               to_proto=lambda value: ",".join(map(str, value))),
        _check_visible, "a sequence of distinct GPU indices >= 0, or a string such as '0,1'",
        "tf.config.set_visible_devices([gpus[i] for i in visible_gpus], 'GPU')",
        'TF1 takes the string "0,1"; indices are physical GPU indices',
        Flag(), _plan_visible("visible_gpus"), _portable_visible, table_order=5, plan_order=10,
        tf1_names=("visible_device_list",), process_wide_default=None),
    OptionSpec(
        "gpus", MapEntry("device_count", "GPU"), check_int_at_least(0), "an integer >= 0",
        "tf.config.set_visible_devices(gpus[:n], 'GPU')", "gpus=0 hides every GPU",
        INT_FLAG, _plan_visible("gpus"), _portable_count, table_order=6, plan_order=10,
        tf1_names=("device_count",)),
    OptionSpec(
        "virtual_gpus", VirtualDevices(), _check_virtual,
        "a sequence (one per visible GPU) of sequences of memory limits in MiB, each > 0",
        "tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=mib), ...])",
        "one list of MiB limits per visible GPU; a memory limit is required for each virtual GPU",
        Flag("append", "MIB,MIB", lambda text: _limits_flag(text),
             "; repeat the flag once per GPU"),
        _plan_virtual, _portable_virtual, table_order=8, plan_order=20,
        tf1_names=("virtual_devices",), process_wide_default=None),
    OptionSpec(
        "allocator_type", Scalar("gpu_options.allocator_type"), _check_allocator, "'BFC'",
        "TF_GPU_ALLOCATOR unset (BFC is TF2's default; TF_GPU_ALLOCATOR=cuda_malloc_async "
        "replaces it)",
        "BFC is the only allocator TF1 accepts; a TF_GPU_ALLOCATOR in the environment "
        "replaces it in both worlds, and the status says so",
        Flag(metavar="NAME"), _plan_allocator, _portable_allocator, table_order=13, plan_order=45,
        process_wide_default=None),
)


def _limits_flag(text: str) -> list[float]:
    """'1024,2048' -> [1024.0, 2048.0] (the limits of one GPU's virtual GPUs)."""
    import argparse

    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--virtual-gpus takes memory limits in MiB separated by commas, "
            f"e.g. 1024,1024; received {text!r}") from None
