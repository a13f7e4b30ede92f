"""Devices, the TF2 way: split a GPU or the CPU into logical devices, choose GPUs, list them.

Each function is a named shortcut for one `modern.configure` option, so it
gets the same checks and the same errors: splitting after the runtime started
names the line that started it; asking for more GPUs than exist, or for more
memory than a card has, says what the machine has.

    modern.devices.split_cpu(4)            # what CPU-only machines test towers with
    modern.devices.split_gpu(0, [1024, 1024])
    print(modern.devices.table())
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

from modern.config import ConfigureReport, apply, configure
from modern.inventory import Inventory
from modern.planning import PlannedOption, Status, check_fits, logical_step
from tf1compat.shared.errors import DeviceError
from tf1compat.shared.options import SessionOptions


def split_cpu(count: int, inventory: Optional[Inventory] = None) -> ConfigureReport:
    """Splits the CPU into `count` logical devices, /cpu:0 ... /cpu:{count-1}.

    Raises:
      OptionError: count is not an integer >= 1.
      RuntimeAlreadyInitializedError: the runtime already started with another split.
    """
    return configure(cpus=count, inventory=inventory)


def split_gpu(index: int, memory_limits_mib: Sequence[float],
              inventory: Optional[Inventory] = None) -> ConfigureReport:
    """Splits physical GPU `index` into one virtual GPU per memory limit (MiB).

    Raises:
      OptionError: a limit is missing or not > 0.
      DeviceError: the GPU does not exist, or the limits add up to more than it has.
      RuntimeAlreadyInitializedError: the runtime already started.
    """
    from modern.inventory import detect

    # SessionOptions validates the limits exactly as it does for virtual_gpus.
    limits = SessionOptions(virtual_gpus=[list(memory_limits_mib)]).virtual_gpus[0]
    inventory = inventory or detect()
    if index not in inventory.gpu_indices:
        raise DeviceError(f"split_gpu({index}, ...) asks for GPU {index}, but this machine's "
                          f"GPUs are {list(inventory.gpu_indices)}; accepted: one of those")
    check_fits(index, limits, inventory)
    # Not through SessionOptions.virtual_gpus: TF1 lists those per visible GPU and
    # cannot leave the GPUs before `index` unsplit.
    return apply([PlannedOption("virtual_gpus", {index: limits}, Status.APPLIED,
                                (logical_step(index, limits),))])


def use_gpus(indices: Sequence[int], inventory: Optional[Inventory] = None) -> ConfigureReport:
    """Makes only these physical GPUs visible (an empty list hides them all)."""
    if not list(indices):
        return configure(gpus=0, inventory=inventory)
    return configure(visible_gpus=list(indices), inventory=inventory)


@dataclasses.dataclass(frozen=True)
class DeviceRow:
    kind: str  # "physical" or "logical"
    device_type: str
    name: str
    detail: str = ""


def rows(inventory: Optional[Inventory] = None) -> list[DeviceRow]:
    """Physical and logical devices. Listing logical devices starts the runtime."""
    import tensorflow as tf

    from modern.inventory import detect

    inventory = inventory or detect()
    found = []
    for device in tf.config.list_physical_devices():
        detail = ""
        if device.device_type == "GPU":
            gpu = inventory.gpu(int(device.name.rsplit(":", 1)[1]))
            memory = f"{gpu.memory_total_mib} MiB" if gpu.memory_total_mib else "memory unknown"
            detail = f"{gpu.name}, {memory}".strip(", ")
        found.append(DeviceRow("physical", device.device_type, device.name, detail))
    for device in tf.config.list_logical_devices():
        found.append(DeviceRow("logical", device.device_type, device.name))
    return found


def table(inventory: Optional[Inventory] = None) -> str:
    """The physical and logical devices as a readable table."""
    listed = rows(inventory)
    width = max(len(row.name) for row in listed)
    lines = [f"{'kind':<9} {'type':<5} {'name':<{width}}  detail"]
    lines += [f"{row.kind:<9} {row.device_type:<5} {row.name:<{width}}  {row.detail}".rstrip()
              for row in listed]
    return "\n".join(lines)
