"""What this machine has: GPUs with their total memory, and the environment.

`modern.plan` takes an `Inventory` as input, so a plan can be computed for a
machine description (0, 1 or 4 GPUs) anywhere; `detect()` reads the real one.

TensorFlow cannot tell a GPU's total memory without allocating on it, so the
total comes from NVML (nvidia-ml-py) and, failing that, from `nvidia-smi`.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from typing import Any, Mapping, Optional

from tf1compat.shared.errors import DeviceError, GpuMemoryUnknownError, OptionError

# Environment variables that change which devices TF sees or how it allocates.
DEVICE_ENVIRONMENT = (
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "TF_GPU_ALLOCATOR",
    "TF_GPU_THREAD_MODE",
    "TF_CPP_MIN_LOG_LEVEL",
    "TF_XLA_FLAGS",
    "TF_ENABLE_ONEDNN_OPTS",
    "TF_CONFIG",
    "HADOOP_CONF_DIR",
    "HADOOP_USER_NAME",
)


@dataclasses.dataclass(frozen=True)
class GpuInfo:
    """One physical GPU as TensorFlow numbers it.

    Attributes:
      index: TensorFlow's physical GPU index (after CUDA_VISIBLE_DEVICES).
      name: the model name, when known.
      memory_total_mib: total memory in MiB, when NVML or nvidia-smi told it.
    """

    index: int
    name: str = ""
    memory_total_mib: Optional[int] = None


@dataclasses.dataclass(frozen=True)
class Inventory:
    """A machine description: its GPUs and its device-related environment."""

    gpus: tuple[GpuInfo, ...] = ()
    environ: Mapping[str, str] = dataclasses.field(default_factory=dict)
    memory_source: str = ""

    @classmethod
    def simulated(cls, gpus: int = 0, memory_mib: int = 16384,
                  environ: Optional[Mapping[str, str]] = None) -> "Inventory":
        """A made-up machine with `gpus` identical GPUs (for plans and tests).

        >>> Inventory.simulated(gpus=2).gpu_indices
        (0, 1)
        """
        return cls(tuple(GpuInfo(i, "simulated GPU", memory_mib) for i in range(gpus)),
                   dict(environ or {}), "simulated")

    @property
    def gpu_indices(self) -> tuple[int, ...]:
        return tuple(gpu.index for gpu in self.gpus)

    def gpu(self, index: int) -> GpuInfo:
        return next(gpu for gpu in self.gpus if gpu.index == index)


def _nvml_gpus() -> Optional[list[tuple[str, int, str]]]:
    """[(name, total MiB, uuid)] in NVML's order, or None without NVML."""
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:  # no driver on this machine: nvidia-smi is asked next
        return None
    try:
        found = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            name = pynvml.nvmlDeviceGetName(handle)
            uuid = pynvml.nvmlDeviceGetUUID(handle)
            total = pynvml.nvmlDeviceGetMemoryInfo(handle).total // (1024 * 1024)
            found.append((_text(name), int(total), _text(uuid)))
        return found
    finally:
        pynvml.nvmlShutdown()


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _nvidia_smi_gpus() -> Optional[list[tuple[str, int, str]]]:
    if not shutil.which("nvidia-smi"):
        return None
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,memory.total,uuid", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=20, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = []
    for line in out.strip().splitlines():
        name, total, uuid = (part.strip() for part in line.split(","))
        found.append((name, int(float(total)), uuid))
    return found


def _visible_order(count: int, environ: Mapping[str, str], driver_gpus) -> list[Optional[int]]:
    """For each TF GPU index, the driver's index of that GPU (None when unknown)."""
    listed = environ.get("CUDA_VISIBLE_DEVICES")
    if listed is None:
        return list(range(count))
    order: list[Optional[int]] = []
    for item in (part.strip() for part in listed.split(",") if part.strip()):
        if item.isdigit():
            order.append(int(item))
        else:  # a UUID (or its prefix) instead of an index
            order.append(next((i for i, gpu in enumerate(driver_gpus) if gpu[2].startswith(item)),
                              None))
    return order[:count]


def detect() -> Inventory:
    """Reads this machine: TensorFlow's physical GPUs, their memory, the environment.

    Listing physical devices does not start TensorFlow's runtime.
    """
    import tensorflow as tf

    environ = {name: os.environ[name] for name in DEVICE_ENVIRONMENT if name in os.environ}
    physical = tf.config.list_physical_devices("GPU")
    if not physical:
        return Inventory((), environ, "")
    driver_gpus, source = _nvml_gpus(), "NVML"
    if driver_gpus is None:
        driver_gpus, source = _nvidia_smi_gpus(), "nvidia-smi"
    order = _visible_order(len(physical), environ, driver_gpus or [])
    gpus = []
    for index, device in enumerate(physical):
        details = tf.config.experimental.get_device_details(device)
        name, total = details.get("device_name", ""), None
        driver_index = order[index] if index < len(order) else None
        if driver_gpus and driver_index is not None and driver_index < len(driver_gpus):
            name = name or driver_gpus[driver_index][0]
            total = driver_gpus[driver_index][1]
        gpus.append(GpuInfo(index, name, total))
    return Inventory(tuple(gpus), environ, source if driver_gpus else "")


def memory_limit_mib(gpu: Any, fraction: float, inventory: Optional[Inventory] = None) -> int:
    """The memory limit (MiB) that is `fraction` of a GPU's total memory.

    TF2 takes a logical device's memory limit in MiB, never a fraction, and
    cannot tell a GPU's total memory without allocating on it; this reads the
    total from NVML or nvidia-smi (`detect()`), at run time, on the machine the
    program runs on. The code `tf1compat explain` prints calls it.

    Args:
      gpu: a `tf.config.PhysicalDevice` of type GPU, or its TF index.
      fraction: in (0, 1].
      inventory: the machine (default: detected).

    Raises:
      OptionError: fraction is not in (0, 1].
      DeviceError: there is no such GPU.
      GpuMemoryUnknownError: neither NVML nor nvidia-smi reports the GPU's memory.

    >>> memory_limit_mib(1, 0.5, Inventory.simulated(2, memory_mib=16000))
    8000
    """
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or \
            not 0 < fraction <= 1:
        raise OptionError("fraction", fraction, "a number greater than 0 and at most 1")
    index = gpu if isinstance(gpu, int) else int(str(getattr(gpu, "name", gpu)).rsplit(":", 1)[-1])
    inventory = inventory if inventory is not None else detect()
    if index not in inventory.gpu_indices:
        raise DeviceError(f"memory_limit_mib({gpu!r}, ...) asks for GPU {index}, but this "
                          f"machine's GPUs are {list(inventory.gpu_indices)}")
    total = inventory.gpu(index).memory_total_mib
    if total is None:
        raise GpuMemoryUnknownError(
            f"a memory fraction of {fraction} needs GPU {index}'s total memory, and neither "
            "NVML (pip install 'nvidia-ml-py>=12') nor nvidia-smi could report it; give the memory "
            "limit in MiB instead, or install the NVIDIA driver tools")
    return int(fraction * total)
