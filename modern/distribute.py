"""`strategy(name, devices=None, ...)`: a tf.distribute strategy by name, with errors that say what is missing.

    strategy("mirrored", ["/cpu:0", "/cpu:1"])   # after modern.devices.split_cpu(2)
    strategy("central_storage")                  # variables on the CPU, compute on the GPUs
    strategy("multi_worker_mirrored")            # needs TF_CONFIG (see `tf1compat launch`)
    strategy("parameter_server")                 # needs a cluster with ps and worker jobs
    strategy("tpu")                              # needs a TPU
    strategy("one_device", ["/cpu:0"]) / strategy("default")

The TF1 counterpart of the in-machine strategies is the multi-tower step of
`tf1compat.towers`; of the multi-worker ones, `tf1compat.cluster`.
"""

from __future__ import annotations

import difflib
from typing import Any, Optional, Sequence

from tf1compat.shared.errors import DeviceError, OptionError, Tf1CompatError

NAMES = ("mirrored", "central_storage", "multi_worker_mirrored", "parameter_server", "tpu",
         "one_device", "default")


class StrategyError(Tf1CompatError, RuntimeError):
    """A strategy cannot be made here: what it needs is missing."""


def _check_name(name: str) -> str:
    if name in NAMES:
        return name
    close = difflib.get_close_matches(str(name), NAMES, n=1, cutoff=0.5)
    raise OptionError("strategy", name, "one of " + ", ".join(NAMES),
                      f"did you mean {close[0]!r}?" if close else "")


def _check_devices(devices: Optional[Sequence[str]]) -> Optional[list[str]]:
    """Every requested device must exist as a logical device (this starts the runtime)."""
    if devices is None:
        return None
    import tensorflow as tf

    from tf1compat.shared.placement import short_device

    devices = list(devices)
    existing = {short_device(d.name) for d in tf.config.list_logical_devices()}
    missing = [d for d in devices if short_device(d) not in existing]
    if missing:
        raise DeviceError(
            f"devices={devices!r} asks for {missing[0]!r}, which does not exist; the logical "
            f"devices are {sorted(existing)}. Fix: split the CPU with modern.devices.split_cpu(N) "
            "(or split a GPU) before the first TensorFlow op, or ask for existing devices")
    return devices


def strategy(name: str, devices: Optional[Sequence[str]] = None, *,
             cluster_resolver: Any = None, parameter_device: str = "/cpu:0",
             tpu: str = "") -> Any:
    """Returns the named tf.distribute strategy.

    Args:
      name: one of NAMES.
      devices: the compute devices for mirrored / central_storage / one_device
        (default: all GPUs, else the CPU). Each must exist.
      cluster_resolver: for multi_worker_mirrored / parameter_server; default:
        the cluster in TF_CONFIG, checked by `modern.cluster` (which, for
        parameter_server, serves forever in the ps and worker tasks and returns
        the strategy on the chief).
      parameter_device: where central_storage keeps the variables.
      tpu: the TPU name or address for 'tpu' ('' = the local TPU).

    Raises:
      OptionError: unknown name (the closest is suggested).
      DeviceError: a requested device does not exist (the message lists those that do).
      ClusterError: no TF_CONFIG (run through `tf1compat launch`), TF_CONFIG that
        is not valid JSON, or a cluster without the jobs the strategy needs.
      StrategyError: no TPU.
    """
    import tensorflow as tf

    name = _check_name(name)
    if name == "default":
        return tf.distribute.get_strategy()
    if name == "mirrored":
        return tf.distribute.MirroredStrategy(devices=_check_devices(devices))
    if name == "central_storage":
        _check_devices([parameter_device])
        return tf.distribute.experimental.CentralStorageStrategy(
            compute_devices=_check_devices(devices), parameter_device=parameter_device)
    if name == "one_device":
        chosen = _check_devices(devices) or [
            "/gpu:0" if tf.config.list_logical_devices("GPU") else "/cpu:0"]
        if len(chosen) != 1:
            raise OptionError("devices", chosen, "exactly one device for 'one_device'")
        return tf.distribute.OneDeviceStrategy(chosen[0])
    if name == "multi_worker_mirrored":
        if cluster_resolver is not None:
            return tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=cluster_resolver)
        from modern import cluster

        return cluster.multi_worker_mirrored()
    if name == "parameter_server":
        if cluster_resolver is not None:
            return tf.distribute.experimental.ParameterServerStrategy(cluster_resolver)
        from modern import cluster

        return cluster.parameter_server()
    return _tpu_strategy(tpu)


def _tpu_strategy(tpu: str) -> Any:
    import tensorflow as tf

    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
    except (ValueError, RuntimeError, tf.errors.OpError) as error:
        logical = [d.name for d in tf.config.list_logical_devices()]
        raise StrategyError(
            f"strategy('tpu') found no TPU (tpu={tpu!r}): {str(error).splitlines()[0]}; this "
            f"machine's devices are {logical}. Use 'mirrored' or 'one_device' here") from None
    return tf.distribute.TPUStrategy(resolver)


def coordinator(strategy_object: Any) -> Any:
    """The ClusterCoordinator a parameter-server strategy needs for custom loops.

    Raises:
      StrategyError: the strategy is not a ParameterServerStrategy.
    """
    import tensorflow as tf

    from modern import cluster

    if not isinstance(strategy_object, tf.distribute.experimental.ParameterServerStrategy):
        raise StrategyError(f"coordinator() is for parameter_server strategies; received "
                            f"{type(strategy_object).__name__}")
    return cluster.coordinator(strategy_object)


def replica_devices(strategy_object: Any) -> list[str]:
    """The devices a strategy computes on, short form."""
    from tf1compat.shared.placement import short_device

    extended = strategy_object.extended
    devices = getattr(extended, "worker_devices", None) or [extended._device]  # OneDevice
    return [short_device(d) for d in devices]
