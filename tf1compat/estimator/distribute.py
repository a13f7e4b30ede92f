"""`RunConfig(train_distribute=...)` on one machine: the session gets the CPUs the strategy names.

tensorflow-estimator 2.15's own path for a `tf.distribute` strategy on one
machine (`MirroredStrategy`, `OneDeviceStrategy`) works on TF 2.21, with one
catch found by trying: the Estimator's sessions are TF1 sessions, which have
one CPU device unless their ConfigProto's `device_count['CPU']` asks for
more, so a `MirroredStrategy(['/cpu:0', '/cpu:1'])` finds no `/cpu:1`, soft
placement puts both replicas on `/cpu:0`, and the first step waits forever
for its all-reduce. `session_config_for` gives the session as many CPUs as
the strategies name (GPUs remapped by `tf1compat run --device-map` are
counted by the runner itself). A cluster in TF_CONFIG is refused in
`tf_internals` (TF 2.21 removed the distribute coordinator).
"""

from __future__ import annotations

from typing import Any, Iterable


def cpus_named(strategies: Iterable[Any]) -> int:
    """1 + the highest CPU index the strategies' replicas use (0 when none is a CPU)."""
    import tensorflow as tf

    needed = 0
    for strategy in strategies:
        extended = getattr(strategy, "extended", None)
        for device in getattr(extended, "worker_devices", ()) or ():
            spec = tf.DeviceSpec.from_string(device)
            if (spec.device_type or "").upper() == "CPU" and spec.device_index is not None:
                needed = max(needed, spec.device_index + 1)
    return needed


def session_config_for(strategies: Iterable[Any], session_config: Any,
                       default_config: Any) -> Any:
    """`session_config` (or `default_config()` when None) with device_count['CPU'] raised
    to what the strategies need; the config unchanged (same object) when it has enough."""
    needed = cpus_named([strategy for strategy in strategies if strategy is not None])
    if needed <= 1:
        return session_config
    base = default_config() if session_config is None else session_config
    if base.device_count.get("CPU", 1) >= needed:
        return session_config
    import tensorflow as tf

    config = tf.compat.v1.ConfigProto()
    config.CopyFrom(base)  # the caller's ConfigProto stays as it was
    config.device_count["CPU"] = needed
    return config
