"""`tf1compat doctor`: a report of this machine that a user can paste into a bug report."""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import Any

from modern.inventory import DEVICE_ENVIRONMENT
from tf1compat.cli import doctor_patches, onednn
from tf1compat.cli import docs_pages

_PACKAGES = ("tf1compat", "tensorflow", "keras", "tf_keras", "numpy", "protobuf",
             "nvidia-ml-py", "hdfs-native", "libcst")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "doctor", epilog=docs_pages.epilog("doctor"),
        help="report versions, devices and settings that affect TF1 code",
        description="Print TensorFlow, Keras and Python versions, the CUDA/cuDNN build, the "
                    "physical and logical devices, the environment variables that change "
                    "device behaviour, and which optional parts (legacy Keras, HDFS) work.")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _hdfs_status() -> dict[str, Any]:
    """Whether TensorFlow reads hdfs:// here: the plugin (loaded now, to be sure) or the fallback."""
    import warnings

    from tf1compat import hdfs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reason is reported below instead
        registered = hdfs.ensure_registered()
    status = hdfs.plugin_status()
    if registered:
        detail = f"TensorFlow plugin {status['plugin_version']} ({status['path']})"
    else:
        fallback = (f"tf.data falls back to hdfs-native {status['hdfs_native_python']}"
                    if status["hdfs_native_python"] else
                    "no fallback: pip install 'hdfs-native>=0.14,<0.15'")
        detail = f"{status['error']}; {fallback}"
    return dict(status, available=registered, detail=detail)


def _nvml_status() -> dict[str, Any]:
    try:
        import pynvml
    except ImportError:
        return {"available": False, "detail": "pip install 'nvidia-ml-py>=12'"}
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as error:  # NVMLError_LibraryNotFound and friends
        return {"available": False, "detail": f"installed, but {error}"}
    pynvml.nvmlShutdown()
    return {"available": True}


def _devices() -> dict[str, Any]:
    from modern import devices
    from modern.inventory import detect

    inventory = detect()
    listed = [dict(kind=row.kind, type=row.device_type, name=row.name, detail=row.detail)
              for row in devices.rows(inventory)]
    return {"physical": [row for row in listed if row["kind"] == "physical"],
            "logical": [row for row in listed if row["kind"] == "logical"],
            "gpu_memory_source": inventory.memory_source or "none"}


def _tf115_source_status(environ: dict[str, str]) -> dict[str, Any]:
    """Where TF 1.15's contrib source is, without fetching it (doctor changes nothing)."""
    from tf1compat.contrib import tf115_source

    named = environ.get(tf115_source.ENV_SOURCE)
    if named:
        return {"available": (Path(named) / "contrib" / "__init__.py").is_file(),
                "detail": f"{tf115_source.ENV_SOURCE}={named}"}
    cached = tf115_source.cached_root()
    if (cached / "contrib" / "__init__.py").is_file():
        return {"available": True, "detail": str(cached)}
    return {"available": False,
            "detail": "fetched once on first use (pip download, 111 MB)"
            if environ.get(tf115_source.ENV_OFFLINE) != "1"
            else f"{tf115_source.ENV_OFFLINE}=1: set {tf115_source.ENV_SOURCE}"}


def internals_status() -> list[dict[str, Any]]:
    """Each private TensorFlow name tf1compat relies on, and whether this TensorFlow has it."""
    from tf1compat.shared import tf_internals

    return [status.to_dict() for status in tf_internals.check()]


def _print_internals(statuses: list[dict[str, Any]]) -> None:
    from tf1compat.shared.tf_internals import TESTED_VERSIONS

    print(f"\nTensorFlow internals (checked on TensorFlow {', '.join(TESTED_VERSIONS)})")
    for status in statuses:
        need = "required" if status["required"] else "optional"
        state = "ok" if status["ok"] else "MISSING " + ", ".join(status["absent"])
        print(f"  {state:<8} {need:<8} {status['feature']}: {status['names']}")
        if not status["ok"]:
            print(f"           without it: {status['without']}")


def collect(environ: dict[str, str]) -> dict[str, Any]:
    """Everything the report shows, as plain data."""
    import tensorflow as tf

    build = dict(tf.sysconfig.get_build_info())
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": {name: _version(name) for name in _PACKAGES},
        "build": {key: build.get(key) for key in
                  ("is_cuda_build", "cuda_version", "cudnn_version", "cuda_compute_capabilities",
                   "is_rocm_build")},
        "devices": _devices(),
        "onednn": onednn.status(environ),
        "environment": {name: environ.get(name) for name in DEVICE_ENVIRONMENT},
        "tf_internals": internals_status(),
        "patches": doctor_patches.patches_status(),
        "library_internals": doctor_patches.library_internals_status(),
        "features": {
            "legacy_keras (tf_keras, for tf.layers)": importlib.util.find_spec("tf_keras")
            is not None,
            "nvml (GPU total memory)": _nvml_status(),
            "nvidia-smi": shutil.which("nvidia-smi") or False,
            "hdfs": _hdfs_status(),
            "tensorflow_probability (tf.contrib.distributions)":
                importlib.util.find_spec("tensorflow_probability") is not None,
            "TF 1.15's contrib source": _tf115_source_status(environ),
        },
    }


def _print_report(report: dict[str, Any]) -> None:
    print(f"tf1compat doctor  (python {report['python']}, {report['platform']})")
    print("\nPackages")
    for name, version in report["packages"].items():
        print(f"  {name:<14} {version}")
    print("\nTensorFlow build")
    for key, value in report["build"].items():
        print(f"  {key:<26} {value}")
    devices = report["devices"]
    print("\nDevices")
    print(f"  {'kind':<9} {'type':<5} {'name':<44} details")
    for entry in devices["physical"] + devices["logical"]:
        print(f"  {entry['kind']:<9} {entry['type']:<5} {entry['name']:<44} "
              f"{entry['detail']}".rstrip())
    print(f"  GPU memory read from: {devices['gpu_memory_source']}")
    state = report["onednn"]
    print("\noneDNN optimisations (fused and renamed ops, last-digit float differences)")
    shown = {True: "on", False: "off", None: "unknown"}[state["enabled"]]
    print(f"  {shown}: {state['reason']}")
    print("\nEnvironment")
    for name, value in report["environment"].items():
        print(f"  {name:<26} {value if value is not None else '(unset)'}")
    _print_internals(report["tf_internals"])
    doctor_patches.print_library_internals(report["library_internals"])
    doctor_patches.print_patches(report["patches"])
    print("\nOptional parts")
    for name, value in report["features"].items():
        if isinstance(value, dict):
            state = "available" if value.get("available") else "unavailable"
            detail = value.get("detail", "")
            value = f"{state}{': ' + detail if detail else ''}"
        elif value is True:
            value = "available"
        elif value is False:
            value = "unavailable"
        print(f"  {name:<40} {value}")


def run(args: argparse.Namespace) -> int:
    report = collect(getattr(args, "original_environ", dict(os.environ)))
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        _print_report(report)
    return 0
