"""Whether TensorFlow's oneDNN optimisations are on in this process, and why.

They matter to TF1 code because they change numbers in the last digits and
which ops exist at run time: oneDNN's graph pass renames and fuses ops
(`MatMul` -> `_MklMatMul`, MatMul + Add + Relu -> `_MklNativeFusedMatMul`).
TensorFlow 2.9+ on x86-64 Linux turns them on by default when the CPU has
one of the neural-network instruction sets below; `TF_ENABLE_ONEDNN_OPTS`
(read when TensorFlow loads) forces them on (`1`) or off (`0`) on any CPU.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any, Mapping, Optional

VARIABLE = "TF_ENABLE_ONEDNN_OPTS"
# /proc/cpuinfo flags of the instruction sets for which TensorFlow enables oneDNN by default.
DEFAULT_ON_FEATURES = ("avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8",
                       "amx_bf16")


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The CPU's feature flags (Linux); empty where /proc/cpuinfo cannot be read."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def status(environ: Optional[Mapping[str, str]] = None,
           flags: Optional[frozenset[str]] = None) -> dict[str, Any]:
    """{'enabled', 'reason', 'cpu_features'}: oneDNN's state in this process and its cause.

    `enabled` is TensorFlow's own answer (importing TensorFlow, which does not
    start its runtime); `reason` names the variable that forced it, or the CPU
    features that turned it on by default.
    """
    from tf1compat.shared import tf_internals

    environ = os.environ if environ is None else environ
    flags = cpu_flags() if flags is None else flags
    features = sorted(set(DEFAULT_ON_FEATURES) & flags)
    try:
        enabled: Optional[bool] = bool(tf_internals.resolve(tf_internals.MKL_ENABLED)())
    except tf_internals.MissingInternalError as error:
        return {"enabled": None, "reason": f"unknown: {error}", "cpu_features": features}
    forced = environ.get(VARIABLE)
    if forced not in (None, ""):
        reason = f"{VARIABLE}={forced}"
    elif features:
        reason = f"default on this CPU: it has {', '.join(features)}"
    elif platform.machine() in ("x86_64", "AMD64"):
        reason = f"default off on this CPU: none of {', '.join(DEFAULT_ON_FEATURES)}"
    else:
        reason = f"default for {platform.machine()}"
    return {"enabled": enabled, "reason": reason, "cpu_features": features}
