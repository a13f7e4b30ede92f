"""Virtual (logical) devices: one physical device split in two.

With a GPU: `virtual_gpus=[[1024, 1024]]` in TF1 and `modern.devices.split_gpu`
in TF2 make two virtual GPUs of 1 GiB. Without one: the CPU is split instead
(`cpus=2` / `split_cpu(2)`), which is how CPU-only machines test
multi-device code. Each device then computes its own share of a sum.
"""

from __future__ import annotations

import numpy as np

from examples import common

NAME = "virtual_devices"
TITLE = "virtual devices split from one device"

VECTOR = np.arange(1, 101, dtype=np.float32)


def _has_gpu() -> bool:
    import tensorflow as tf

    return bool(tf.config.list_physical_devices("GPU"))


def _shares(tf, x, devices):
    parts = tf.split(x, len(devices))
    shares = []
    for index, device in enumerate(devices):
        with tf.device(device):
            shares.append(tf.reduce_sum(parts[index], name=f"share_{index}"))
    return shares


def _result(shares, where, devices) -> dict:
    ran_on = [where.device_of(f"share_{i}") for i in range(len(devices))]
    values = {"devices": devices, "shares": [float(s) for s in shares], "ran_on": ran_on}
    return {"summary": f"{len(devices)} logical devices {devices}; shares {values['shares']}",
            "values": values}


def tf1(settings: common.Settings) -> dict:
    import tensorflow as tf

    import tf1compat
    from tf1compat import placement
    from tf1compat.placement import short_device

    kind = "GPU" if _has_gpu() else "CPU"
    options = {"virtual_gpus": [[1024, 1024]]} if kind == "GPU" else {"cpus": 2}
    with tf1compat.session(**options) as sess:
        devices = [short_device(d.name) for d in sess.list_devices() if d.device_type == kind]
        x = tf.compat.v1.placeholder(tf.float32, VECTOR.shape)
        shares, where = placement.run(sess, _shares(tf, x, devices), {x: VECTOR})
    return _result(shares, where, devices)


def tf2(settings: common.Settings) -> dict:
    from modern import devices as modern_devices
    from modern import placement
    from tf1compat.placement import short_device

    kind = "GPU" if _has_gpu() else "CPU"
    if kind == "GPU":
        modern_devices.split_gpu(0, [1024, 1024])
    else:
        modern_devices.split_cpu(2)
    import tensorflow as tf

    devices = [short_device(d.name) for d in tf.config.list_logical_devices(kind)]
    shares, where = placement.run(lambda x: _shares(tf, x, devices), tf.constant(VECTOR))
    return _result([s.numpy() for s in shares], where, devices)


def agree(tf1_result: dict, tf2_result: dict):
    return common.exact(tf1_result, tf2_result, ["devices", "shares", "ran_on"])


if __name__ == "__main__":
    common.main(__spec__.name)
