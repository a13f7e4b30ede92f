"""GPU-only checks: skipped, with the reason, on machines without an NVIDIA GPU."""

import pytest


def _gpu_count() -> int:
    try:
        import pynvml
    except ImportError:  # no nvidia-ml-py: no way to see a GPU
        return 0
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:  # no driver: no GPU here
        return 0
    try:
        return pynvml.nvmlDeviceGetCount()
    finally:
        pynvml.nvmlShutdown()


GPU_COUNT = _gpu_count()


def pytest_collection_modifyitems(config, items):
    if GPU_COUNT:
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU (NVML found none); "
                                   "run tests/gpu/run_gpu_checks.sh on a GPU machine")
    for item in items:
        if "tests/gpu/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
