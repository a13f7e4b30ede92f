"""The GPUs a `--device-map` gives the script, described as TensorFlow describes GPUs.

A multi-GPU script counts its GPUs before it builds one tower per GPU
(`device_lib.list_local_devices()`, `tf.test.is_gpu_available()`,
`tf.config.experimental.list_physical_devices('GPU')`); where the map sends
the GPUs to CPUs it must still find them, or it refuses to start or builds no
towers. `MappedGpus` says which GPUs the map provides (`DeviceMap.provided`:
for `gpu:*=...` one per logical CPU the sessions get, and each explicit
`gpu:i=...`) and describes them as TensorFlow does: `/device:GPU:i`, device
type 'GPU', a `physical_device_desc` naming the device the GPU runs on. It
also keeps what the script sets on them (visibility, memory growth, a memory
limit): none of it means anything on a CPU, but a script sets them on its GPUs
as TensorFlow allows, and reads them back.

`tf1compat.runner.device_listing` puts these where the script reads its devices.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Optional

from tf1compat.runner.device_map import DeviceMap
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.placement import short_device

GPU = "GPU"
_PHYSICAL = "/physical_device:GPU:{}"
_LOGICAL = "/device:GPU:{}"


class MappedDeviceError(Tf1CompatError, ValueError):
    """A setting asked of a mapped GPU that the CPU it runs on cannot give."""


def gpu_index(name: str) -> Optional[int]:
    """'/physical_device:GPU:1' or '/job:localhost/.../device:GPU:1' -> 1; None for others."""
    kind, _, index = short_device(name).partition(":")
    return int(index) if kind == GPU and index.isdigit() else None


class MappedGpus:
    """The GPUs of a device map, and the settings the script gave them.

    Args:
      device_map: the run's `DeviceMap`.
      cpus: how many logical CPUs a session gets now (the command line's `--cpus`,
        raised to what the remapped towers need): `gpu:*=...` provides that many GPUs.
    """

    def __init__(self, device_map: DeviceMap, cpus: Callable[[], int]):
        self.device_map = device_map
        self._cpus = cpus
        self._incarnations: dict[int, int] = {}
        self._hidden: set[int] = set()
        self._memory_growth: dict[int, bool] = {}
        self._configurations: dict[int, list] = {}

    def provided(self, cpus: Optional[int] = None) -> list[tuple[int, str]]:
        """(GPU index, target such as 'CPU:1') of each GPU the map provides."""
        return self.device_map.provided(GPU, self._cpus() if cpus is None else cpus)

    def __bool__(self) -> bool:
        return bool(self.provided())

    def covers(self, name: str) -> bool:
        """Whether the real device `name` is a GPU the map stands in for (its requests go on)."""
        index = gpu_index(name)
        return index is not None and self.device_map.rule_for(GPU, index) is not None

    def description(self, index: int, target: str) -> str:
        """TensorFlow's `physical_device_desc` shape ('device: 0, name: ...'), naming the CPU."""
        return (f"device: {index}, name: mapped to /device:{target} by tf1compat run "
                f"--device-map {self.device_map}")

    # -- device_lib.list_local_devices ----------------------------------------------------

    def local_devices(self, real: list) -> list:
        """`real` (DeviceAttributes, as device_lib lists them) with the mapped GPUs in place.

        The wildcard provides one GPU per CPU in `real`, the CPUs the listing's config gives.
        """
        if not real:
            return real
        cpus = [device for device in real if device.device_type == "CPU"]
        provided = self.provided(len(cpus) or 1)
        listing = [device for device in real
                   if not (device.device_type == GPU and self.covers(device.name))]
        backing = {short_device(device.name): device for device in real}
        for index, target in provided:
            listing.append(self._attributes(type(real[0]), index, target,
                                            backing.get(target, cpus[0] if cpus else real[0])))
        return listing

    def _attributes(self, proto_class: type, index: int, target: str, backing: Any) -> Any:
        entry = proto_class()
        entry.name = _LOGICAL.format(index)
        entry.device_type = GPU
        entry.memory_limit = backing.memory_limit
        entry.locality.CopyFrom(backing.locality)
        entry.incarnation = self._incarnation(index)
        entry.physical_device_desc = self.description(index, target)
        if "xla_global_id" in proto_class.DESCRIPTOR.fields_by_name:
            entry.xla_global_id = backing.xla_global_id
        return entry

    def _incarnation(self, index: int) -> int:
        """A random id per device and process, as TensorFlow gives each device it creates."""
        if index not in self._incarnations:
            self._incarnations[index] = random.SystemRandom().getrandbits(63) | 1
        return self._incarnations[index]

    # -- tf.config ---------------------------------------------------------------------------

    def physical(self, visible_only: bool = False) -> list:
        import tensorflow as tf

        return [tf.config.PhysicalDevice(_PHYSICAL.format(index), GPU)
                for index, _ in self.provided()
                if not (visible_only and index in self._hidden)]

    def logical(self) -> list:
        import tensorflow as tf

        return [tf.config.LogicalDevice(_LOGICAL.format(index), GPU)
                for index, _ in self.provided() if index not in self._hidden]

    def index_of(self, device: Any) -> Optional[int]:
        """The index of a mapped GPU given as a PhysicalDevice; None for any other device."""
        name = getattr(device, "name", None)
        if not isinstance(name, str) or not name.startswith("/physical_device:"):
            return None
        index = gpu_index(name)
        return index if index in {i for i, _ in self.provided()} else None

    def target_of(self, index: int) -> str:
        return dict(self.provided(max(self._cpus(), index + 1)))[index]

    def set_visible(self, indices: Iterable[int]) -> None:
        keep = set(indices)
        self._hidden = {index for index, _ in self.provided() if index not in keep}

    def set_memory_growth(self, index: int, enable: bool) -> None:
        self._memory_growth[index] = bool(enable)

    def memory_growth(self, index: int) -> Optional[bool]:
        return self._memory_growth.get(index)

    def set_configuration(self, index: int, configurations: Optional[list], asked: str) -> None:
        """Keeps one logical device's configuration; a split into several is refused."""
        configurations = None if configurations is None else list(configurations)
        if configurations is not None and len(configurations) > 1:
            raise MappedDeviceError(
                f"{asked}: /physical_device:GPU:{index} runs on {self.target_of(index)} "
                f"(--device-map {self.device_map}), which cannot be split into "
                f"{len(configurations)} logical GPUs; map that many GPUs instead "
                f"(--device-map 'gpu:*=cpu:*' --cpus {len(configurations)} gives "
                f"{len(configurations)})")
        self._configurations[index] = configurations

    def configuration(self, index: int) -> Optional[list]:
        return self._configurations.get(index)
