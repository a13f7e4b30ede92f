"""GPU and session options: one set of ConfigProto options, applied in both worlds.

TF1: `tf1compat.session(...)` — a `tf.compat.v1.Session` with the ConfigProto.
TF2: `modern.configure(...)` — the same options as `tf.config` calls.
An op pinned to `/gpu:0` shows soft placement (it falls back where there is no
GPU); one pinned to `/cpu:1` shows the CPU split. Growth and the memory
fraction only act on a GPU: on a CPU-only machine TF1 ignores them and TF2
reports them "not applicable".
"""

from __future__ import annotations

import numpy as np

from examples import common

NAME = "session_options"
TITLE = "GPU/session options: ConfigProto vs tf.config"

OPTIONS = dict(soft_placement=True, growth=True, cpus=2, intra_op_threads=2, inter_op_threads=2)
MATRIX = np.arange(16, dtype=np.float32).reshape(4, 4)


def _build(tf, x):
    with tf.device("/gpu:0"):
        squared = tf.matmul(x, x, name="wants_gpu")
    with tf.device("/cpu:1"):
        return tf.reduce_sum(squared, name="on_cpu1")


def _result(total, where, devices, extra: str) -> dict:
    values = {"total": float(total), "devices": sorted(devices),
              "wants_gpu_ran_on": where.device_of("wants_gpu"),
              "on_cpu1_ran_on": where.device_of("on_cpu1")}
    return {"summary": f"total {values['total']:.0f}; /gpu:0 op ran on "
                       f"{values['wants_gpu_ran_on']}; {len(devices)} devices; {extra}",
            "values": values}


def tf1(settings: common.Settings) -> dict:
    import tensorflow as tf

    import tf1compat
    from tf1compat import placement
    from tf1compat.placement import short_device

    with tf1compat.session(**OPTIONS) as sess:
        x = tf.compat.v1.placeholder(tf.float32, MATRIX.shape, name="x")
        total, where = placement.run(sess, _build(tf, x), {x: MATRIX})
        devices = [short_device(d.name) for d in sess.list_devices()]
    return _result(total, where, devices, "ConfigProto set in the session")


def tf2(settings: common.Settings) -> dict:
    import modern
    from modern import placement
    from tf1compat.placement import short_device

    report = modern.configure(**OPTIONS)
    import tensorflow as tf

    total, where = placement.run(lambda x: _build(tf, x), tf.constant(MATRIX))
    devices = [short_device(d.name) for d in tf.config.list_logical_devices()]
    statuses = ", ".join(f"{row.keyword} {row.status.value}" for row in report)
    return _result(total.numpy(), where, devices, statuses)


def agree(tf1_result: dict, tf2_result: dict):
    return common.exact(tf1_result, tf2_result,
                        ["total", "devices", "wants_gpu_ran_on", "on_cpu1_ran_on"])


if __name__ == "__main__":
    common.main(__spec__.name)
