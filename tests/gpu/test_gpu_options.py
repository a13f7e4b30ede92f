"""GPU-only: memory growth, memory fraction, virtual and visible GPUs, on both sides.

Each check runs in its own process (GPU options are fixed per process) and
reads what TensorFlow really did: its "Created device ... with N MB memory"
log line, the logical devices it lists, and the GPU memory NVML reports.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import GPU_COUNT  # noqa: E402
from gpu_facts import device_limits_mb, device_used_mib, total_mib  # noqa: E402
from isolated import last_json, run_python  # noqa: E402

VERBOSE_TF = {"TF_CPP_MIN_LOG_LEVEL": "0"}
SMALL_OP = "tf.reduce_sum(tf.ones([256, 256])).numpy()"


def _child(source: str):
    """Runs a child that prints JSON (with 'used_mib' sampled while it holds memory)."""
    result = run_python(source, env=VERBOSE_TF, timeout=300)
    return last_json(result), device_limits_mb(result.stderr)


def _sample_used() -> str:
    return ("import pynvml; pynvml.nvmlInit(); "
            "used = pynvml.nvmlDeviceGetMemoryInfo(pynvml.nvmlDeviceGetHandleByIndex(0)).used "
            "// 2**20; pynvml.nvmlShutdown()")


@pytest.mark.parametrize("side", ["tf1compat", "modern"])
def test_growth_keeps_process_memory_small(side):
    baseline = device_used_mib(0)
    body = ("with tf1compat.session(growth=True) as sess:\n"
            "    sess.run(tf.reduce_sum(tf.ones([256, 256])))\n"
            f"    {_sample_used()}") if side == "tf1compat" else (
            "modern.configure(growth=True)\n"
            f"{SMALL_OP}\n{_sample_used()}")
    facts, _ = _child(f"""
import json, modern, tf1compat
import tensorflow as tf
{body}
print(json.dumps({{"used_mib": used}}))
""")
    grown = facts["used_mib"] - baseline
    print(f"{side}: growth=True used {grown} MiB of {total_mib(0)} MiB")
    assert grown < 2048, f"{side} with growth took {grown} MiB"


@pytest.mark.parametrize("side", ["tf1compat", "modern"])
def test_memory_fraction_limit_within_two_percent(side):
    fraction = 0.25
    body = ("with tf1compat.session(memory_fraction=0.25) as sess:\n"
            "    sess.run(tf.reduce_sum(tf.ones([8, 8])))") if side == "tf1compat" else (
            "report = modern.configure(memory_fraction=0.25)\n"
            "assert report['memory_fraction'].status.value == 'applied'\n" + SMALL_OP)
    _, limits = _child(f"""
import json, modern, tf1compat
import tensorflow as tf
{body}
print(json.dumps({{}}))
""")
    expected = fraction * total_mib(0)
    limit = limits[min(limits)]
    print(f"{side}: memory_fraction=0.25 -> TF limit {limit} MB, expected {expected:.0f} MiB")
    assert abs(limit - expected) <= 0.02 * expected


def test_growth_with_fraction_is_limited_and_grows():
    baseline = device_used_mib(0)
    facts, limits = _child(f"""
import json, modern
import tensorflow as tf
report = modern.configure(growth=True, memory_fraction=0.5)
statuses = {{row.keyword: row.status.value for row in report}}
{SMALL_OP}
{_sample_used()}
print(json.dumps({{"used_mib": used, "statuses": statuses}}))
""")
    assert facts["statuses"] == {"memory_fraction": "applied", "growth": "approximated"}
    limit = limits[min(limits)]
    assert abs(limit - 0.5 * total_mib(0)) <= 0.02 * 0.5 * total_mib(0)
    assert facts["used_mib"] - baseline < 2048


@pytest.mark.parametrize("side", ["tf1compat", "modern"])
def test_two_virtual_gpus_are_listed(side):
    body = ("with tf1compat.session(virtual_gpus=[[1024, 1024]]) as sess:\n"
            "    names = [d.name for d in sess.list_devices() if d.device_type == 'GPU']"
            ) if side == "tf1compat" else (
            "modern.configure(virtual_gpus=[[1024, 1024]])\n"
            "names = [d.name for d in tf.config.list_logical_devices('GPU')]")
    facts, limits = _child(f"""
import json, modern, tf1compat
import tensorflow as tf
{body}
print(json.dumps({{"gpus": names}}))
""")
    assert len(facts["gpus"]) == 2
    assert sorted(limits.values()) == [1024, 1024]


def test_visible_devices_both_sides():
    target = GPU_COUNT - 1
    facts, _ = _child(f"""
import json, modern, tf1compat
import tensorflow as tf
modern.configure(visible_gpus=[{target}])
tf2 = [d.name for d in tf.config.list_logical_devices('GPU')]
with tf1compat.session(visible_gpus=[{target}]) as sess:
    tf1 = [d.name for d in sess.list_devices() if d.device_type == 'GPU']
print(json.dumps({{"tf2": tf2, "tf1": tf1}}))
""")
    assert len(facts["tf2"]) == 1 and len(facts["tf1"]) == 1


def test_hiding_every_gpu():
    facts, _ = _child("""
import json, modern
import tensorflow as tf
modern.configure(gpus=0)
print(json.dumps({"gpus": [d.name for d in tf.config.list_logical_devices('GPU')]}))
""")
    assert facts["gpus"] == []
