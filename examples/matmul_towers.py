"""Multi-tower matmul: the same product on every device, summed with add_n on the CPU.

TF1: `tf.device` towers in a session with `device_count={'CPU': 2}` (or GPUs).
TF2: the same towers in a `tf.function` over logical devices.
Deterministic: integer-valued matrices, so both sums must be identical.
"""

from __future__ import annotations

import numpy as np

from examples import common

NAME = "matmul_towers"
TITLE = "multi-tower matmul + add_n on the CPU"


def _inputs(settings: common.Settings):
    size = 64 if settings.size == "small" else 1024
    rng = np.random.default_rng(0)
    a = rng.integers(-4, 5, size=(size, size)).astype(np.float32)
    b = rng.integers(-4, 5, size=(size, size)).astype(np.float32)
    return a, b


def _devices(count: int = 2) -> list[str]:
    return [f"/cpu:{i}" for i in range(count)]


def _result(total: np.ndarray, where) -> dict:
    tower_devices = [where.device_of(f"tower_{i}/product") for i in range(2)]
    return {
        "summary": f"sum of {total.size} entries = {total.sum():.0f}; towers on "
                   f"{tower_devices}, add_n on {where.device_of('sum')}",
        "values": {"checksum": float(total.sum()), "corner": total[:2, :2].tolist(),
                   "tower_devices": tower_devices, "sum_device": where.device_of("sum")},
    }


def tf1(settings: common.Settings) -> dict:
    import tensorflow as tf

    import tf1compat
    from tf1compat import placement, towers

    a_value, b_value = _inputs(settings)
    with tf1compat.session(cpus=2) as sess:
        a = tf.compat.v1.placeholder(tf.float32, a_value.shape, name="a")
        b = tf.compat.v1.placeholder(tf.float32, b_value.shape, name="b")
        total = towers.matmul_towers(a, b, _devices())
        value, where = placement.run(sess, total, {a: a_value, b: b_value})
    return _result(value, where)


def tf2(settings: common.Settings) -> dict:
    from modern import devices, placement, towers

    devices.split_cpu(2)
    a_value, b_value = _inputs(settings)
    value, where = placement.run(lambda a, b: towers.matmul_towers(a, b, _devices()),
                                 a_value, b_value)
    return _result(value.numpy(), where)


def agree(tf1_result: dict, tf2_result: dict):
    return common.exact(tf1_result, tf2_result,
                        ["checksum", "corner", "tower_devices", "sum_device"])


if __name__ == "__main__":
    common.main(__spec__.name)
