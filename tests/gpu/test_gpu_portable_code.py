"""GPU-only: the portable code `explain` prints gives the same GPU limits as configure()."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpu_facts import device_limits_mb, total_mib  # noqa: E402
from isolated import last_json, run_python  # noqa: E402

from modern.config import explain  # noqa: E402


def test_portable_memory_fraction_code_limits_each_gpu():
    code = explain(memory_fraction=0.25, growth=True)
    result = run_python(code + """
import json
print(json.dumps({"sum": tf.reduce_sum(tf.ones([8, 8])).numpy().tolist(),
                  "growth": os.environ.get("TF_FORCE_GPU_ALLOW_GROWTH")}))
""", env={"TF_CPP_MIN_LOG_LEVEL": "0"}, timeout=300)
    facts, limits = last_json(result), device_limits_mb(result.stderr)
    expected = 0.25 * total_mib(0)
    limit = limits[min(limits)]
    print(f"portable code: memory_fraction=0.25 -> TF limit {limit} MB, expected {expected:.0f} MiB")
    assert abs(limit - expected) <= 0.02 * expected
    assert facts["growth"] == "true"
