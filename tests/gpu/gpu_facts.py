"""Helpers for the GPU checks: NVML readings and TensorFlow's own device log."""

from __future__ import annotations

import re

# TensorFlow logs each GPU device it creates with its memory limit, e.g.
# "Created device /job:localhost/replica:0/task:0/device:GPU:0 with 35000 MB memory".
CREATED_DEVICE = re.compile(r"Created device (\S*GPU:\d+) with (\d+) MB memory")


def device_limits_mb(stderr: str) -> dict[str, int]:
    """{device name: memory limit in MB} from TF's log (TF_CPP_MIN_LOG_LEVEL=0)."""
    return {name: int(mb) for name, mb in CREATED_DEVICE.findall(stderr)}


def total_mib(index: int = 0) -> int:
    import pynvml

    pynvml.nvmlInit()
    try:
        handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        return pynvml.nvmlDeviceGetMemoryInfo(handle).total // (1024 * 1024)
    finally:
        pynvml.nvmlShutdown()


def device_used_mib(index: int = 0) -> int:
    """Memory in use on a GPU, all processes together, in MiB.

    Per-process figures are unreliable in containers (PID namespaces), so the
    checks compare this before a child process starts and while it runs.
    """
    import pynvml

    pynvml.nvmlInit()
    try:
        handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        return pynvml.nvmlDeviceGetMemoryInfo(handle).used // (1024 * 1024)
    finally:
        pynvml.nvmlShutdown()
