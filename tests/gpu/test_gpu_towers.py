"""GPU-only: two virtual GPUs from one card, towers and MirroredStrategy over them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from isolated import run_json  # noqa: E402


def test_towers_and_mirrored_strategy_on_two_virtual_gpus():
    facts = run_json("""
import json
import numpy as np
from modern import devices, distribute, placement, towers
devices.split_gpu(0, [1024, 1024])
import tensorflow as tf
gpus = [d.name for d in tf.config.list_logical_devices("GPU")]
a = np.arange(64, dtype=np.float32).reshape(8, 8)
value, where = placement.run(lambda x: towers.matmul_towers(x, x, ["/gpu:0", "/gpu:1"]), a)
strategy = distribute.strategy("mirrored", ["/gpu:0", "/gpu:1"])
with strategy.scope():
    v = tf.Variable(1.0)
per_replica = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group + 1)
total = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
print(json.dumps({
    "gpus": gpus,
    "towers": [where.device_of(f"tower_{i}/product") for i in range(2)],
    "sum_device": where.device_of("sum"),
    "value_ok": bool(np.allclose(value.numpy(), 2 * (a @ a))),
    "replicas": strategy.num_replicas_in_sync,
    "replica_sum": int(total.numpy()),
    "variable": type(v).__name__,
}))
""", timeout=300)
    assert len(facts["gpus"]) == 2
    assert facts["towers"] == ["GPU:0", "GPU:1"]
    assert facts["sum_device"] == "CPU:0"
    assert facts["value_ok"]
    assert facts["replicas"] == 2 and facts["replica_sum"] == 3
    assert facts["variable"] == "MirroredVariable"
