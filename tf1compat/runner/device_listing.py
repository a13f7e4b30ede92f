"""Under `--device-map`, the script's own device listings show the GPUs of the map.

A script reads its devices in two ways, and both answer with the mapped GPUs
(`tf1compat.runner.mapped_devices`) when the caller is user code:

- `from tensorflow.python.client import device_lib`: its `list_local_devices`
  is wrapped once for the process (user code imports the module itself), and
  answers with the mapped GPUs to user code only;
- the `tf.` names of the TF1 module (`tf.test.is_gpu_available`,
  `tf.test.gpu_device_name`, `tf.config.*` and `tf.config.experimental.*`,
  `tf.contrib.eager.num_gpus`): served from `DeviceViews` by the shim.

Libraries, TensorFlow's own code included, keep the machine's real devices:
nothing inside them configures or places on a GPU that is not there (their
requests for a GPU are remapped like the script's). `tf.test.is_built_with_cuda`
is left as TensorFlow answers it: it describes the TensorFlow binary, which the
map does not change.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

from tf1compat.runner import is_runner_frame
from tf1compat.runner.device_map import DeviceMap
from tf1compat.runner.mapped_devices import GPU, MappedGpus, gpu_index
from tf1compat.shared import tf_internals
from tf1compat.shared.lazy_tf import tensorflow as _tf

NOTE = "lists the GPUs of --device-map, each on the device it is mapped to"


def _as_list(devices: Any) -> list:
    return list(devices) if isinstance(devices, (list, tuple)) else [devices]


class DeviceViews:
    """The device functions the script calls, answering with the mapped GPUs as well.

    Args:
      gpus: the map's GPUs.
      list_local_devices: TensorFlow's own `device_lib.list_local_devices`.
      session_config: the ConfigProto a session built with the script's config gets
        (the command line's options merged in, as `SessionHook.resolve` gives it).
    """

    def __init__(self, gpus: MappedGpus, list_local_devices: Callable[..., list],
                 session_config: Callable[[Any], Any]):
        self.gpus = gpus
        self._list_local_devices = list_local_devices
        self._session_config = session_config

    # -- device_lib and tf.test -------------------------------------------------------------

    def list_local_devices(self, session_config=None) -> list:
        """device_lib's listing for the sessions' config, the mapped GPUs in it."""
        return self.gpus.local_devices(self._list_local_devices(
            self._session_config(session_config)))

    def is_gpu_available(self, cuda_only=False, min_cuda_compute_capability=None) -> bool:
        """True with mapped GPUs, whatever the arguments (they run the CPU's kernels)."""
        if self.gpus:
            return True
        return _tf().compat.v1.test.is_gpu_available(cuda_only, min_cuda_compute_capability)

    def gpu_device_name(self) -> str:
        for device in self.list_local_devices():
            if device.device_type == GPU:
                return device.name
        return ""

    # -- tf.config ----------------------------------------------------------------------------

    def _real(self, devices: list) -> list:
        """The machine's devices, less the GPUs the map stands in for."""
        return [device for device in devices
                if not (device.device_type == GPU and self.gpus.covers(device.name))]

    def list_physical_devices(self, device_type=None) -> list:
        devices = self._real(_tf().config.list_physical_devices(device_type))
        return devices + self.gpus.physical() if device_type in (None, GPU) else devices

    def list_logical_devices(self, device_type=None) -> list:
        devices = self._real(_tf().config.list_logical_devices(device_type))
        return devices + self.gpus.logical() if device_type in (None, GPU) else devices

    def get_visible_devices(self, device_type=None) -> list:
        devices = self._real(_tf().config.get_visible_devices(device_type))
        if device_type in (None, GPU):
            return devices + self.gpus.physical(visible_only=True)
        return devices

    def set_visible_devices(self, devices, device_type=None) -> None:
        devices = _as_list(devices)
        mapped = [self.gpus.index_of(device) for device in devices]
        real = [device for device, index in zip(devices, mapped) if index is None]
        if device_type in (None, GPU):
            self.gpus.set_visible(index for index in mapped if index is not None)
        tf = _tf()
        if real or device_type not in (None, GPU) or tf.config.list_physical_devices(GPU):
            tf.config.set_visible_devices(real, device_type)

    def set_memory_growth(self, device, enable) -> None:
        index = self.gpus.index_of(device)
        if index is None:
            return _tf().config.experimental.set_memory_growth(device, enable)
        self.gpus.set_memory_growth(index, enable)

    def get_memory_growth(self, device) -> Optional[bool]:
        index = self.gpus.index_of(device)
        if index is None:
            return _tf().config.experimental.get_memory_growth(device)
        return self.gpus.memory_growth(index)

    def set_logical_device_configuration(self, device, logical_devices) -> None:
        index = self.gpus.index_of(device)
        if index is None:
            return _tf().config.set_logical_device_configuration(device, logical_devices)
        self.gpus.set_configuration(index, logical_devices, "set_logical_device_configuration")

    def get_logical_device_configuration(self, device) -> Optional[list]:
        index = self.gpus.index_of(device)
        if index is None:
            return _tf().config.get_logical_device_configuration(device)
        return self.gpus.configuration(index)

    def get_device_details(self, device) -> dict:
        index = self.gpus.index_of(device)
        if index is None:
            return _tf().config.experimental.get_device_details(device)
        return {"device_name": self.gpus.description(index, self.gpus.target_of(index))}

    # -- tf.contrib.eager ---------------------------------------------------------------------

    def num_gpus(self) -> int:
        return len(self.list_logical_devices(GPU))

    def list_devices(self) -> list:
        from tf1compat.contrib import eager

        names = [name for name in eager.list_devices()
                 if not (gpu_index(name) is not None and self.gpus.covers(name))]
        prefix = names[0].rsplit("/device:", 1)[0] if names else "/job:localhost/replica:0/task:0"
        return names + [f"{prefix}{device.name}" for device in self.gpus.logical()]

    def served(self) -> dict[str, Callable]:
        """`tf.` path under the TF1 module -> the function the script gets for it."""
        config, experimental = "config.", "config.experimental."
        both = (config, experimental)
        paths: dict[str, Callable] = {
            "test.is_gpu_available": self.is_gpu_available,
            "test.gpu_device_name": self.gpu_device_name,
            experimental + "set_memory_growth": self.set_memory_growth,
            experimental + "get_memory_growth": self.get_memory_growth,
            experimental + "get_device_details": self.get_device_details,
            config + "set_logical_device_configuration": self.set_logical_device_configuration,
            config + "get_logical_device_configuration": self.get_logical_device_configuration,
            experimental + "set_virtual_device_configuration":
                self.set_logical_device_configuration,
            experimental + "get_virtual_device_configuration":
                self.get_logical_device_configuration,
            "contrib.eager.num_gpus": self.num_gpus,
            "contrib.eager.list_devices": self.list_devices,
        }
        for name in ("list_physical_devices", "list_logical_devices", "get_visible_devices",
                     "set_visible_devices"):
            paths.update({prefix + name: getattr(self, name) for prefix in both})
        return paths


def _called_from_user_code(frame, is_user_file: Callable[[str], bool]) -> bool:
    """Whether the call came from user code (frames of the runner itself are looked through)."""
    while frame is not None and is_runner_frame(frame.f_code.co_filename):
        frame = frame.f_back
    return frame is not None and is_user_file(frame.f_code.co_filename)


def install(device_map: DeviceMap, resolve: Callable[[Any], tuple[Any, Any]],
            is_user_file: Callable[[str], bool]) -> DeviceViews:
    """Puts the GPUs of `device_map` in the script's listings: device_lib's and the TF1 module's.

    Args:
      device_map: the run's map.
      resolve: `SessionHook.resolve`: a script's ConfigProto -> (the one its session gets,
        its record); the listings count the CPUs a session gets.
      is_user_file: whether a source file is user code.
    """
    from tf1compat.runner import served, tf_servers

    def session_config(config: Any) -> Any:
        return resolve(config)[0]

    def cpus() -> int:
        proto = session_config(None)
        return proto.device_count["CPU"] if proto is not None and \
            "CPU" in proto.device_count else 1

    gpus = MappedGpus(device_map, cpus)
    views: list[DeviceViews] = []

    def wrap(original):
        def list_local_devices(session_config=None):
            if _called_from_user_code(sys._getframe(1), is_user_file):
                return views[0].list_local_devices(session_config)
            return original(session_config)

        list_local_devices.__wrapped__ = original
        list_local_devices.__doc__ = original.__doc__
        return list_local_devices

    original = tf_internals.patch("tf.device-listing", wrap)
    views.append(DeviceViews(gpus, original, session_config))
    for path, function in views[0].served().items():
        tf_servers.overrides[path] = (function, served.Symbol(
            served.Served.REPLACED, f"{__name__}.DeviceViews.{function.__name__}", NOTE))
    return views[0]

