"""The TF2 steps the GPU options plan, and what those options share while planning.

Each step carries its call (`run`) and its check (`in_effect`); the planner
keeps the visible GPUs and the logical devices planned so far in
`planner.memo`, so a later option sees what an earlier one decided.
"""

from __future__ import annotations

from typing import Iterable

from tf1compat.shared.errors import DeviceError
from tf1compat.shared.option_spec import Status, Step

GPUS = frozenset({"gpus"})


# -- what the GPU options share while planning --------------------------------


def visible(planner) -> tuple[int, ...]:
    """Physical indices of the GPUs the options leave visible, in TF1's order."""
    if "gpus" not in planner.memo:
        options, available = planner.options, planner.inventory.gpu_indices
        chosen = available
        if options.visible_gpus is not None and available:
            missing = [i for i in options.visible_gpus if i not in available]
            if missing:
                raise DeviceError(
                    f"visible_gpus={options.visible_gpus!r} asks for GPU {missing[0]}, but this "
                    f"machine's GPUs are {list(available)}; accepted: indices among those")
            chosen = options.visible_gpus
        if options.gpus is not None:
            chosen = chosen[: options.gpus]
        planner.memo["gpus"] = tuple(chosen)
    return planner.memo["gpus"]


def logical(planner) -> dict:
    """Physical GPU index -> memory limits (MiB) of the logical devices planned for it."""
    return planner.memo.setdefault("logical", {})


def no_gpu(planner, keyword: str) -> None:
    why = "this machine has no GPU" if not planner.inventory.gpus else "no GPU is visible (gpus=0)"
    planner.add(keyword, Status.NOT_APPLICABLE, detail=why)


def _gpu(index: int):
    import tensorflow as tf

    return tf.config.list_physical_devices("GPU")[index]


# -- the steps ---------------------------------------------------------------


def _set_visible(indices: tuple) -> None:
    import tensorflow as tf

    gpus = tf.config.list_physical_devices("GPU")
    tf.config.set_visible_devices([gpus[i] for i in indices], "GPU")


def _visible_in_effect(indices: tuple) -> bool:
    import tensorflow as tf

    gpus = tf.config.list_physical_devices("GPU")
    return [gpus.index(d) for d in tf.config.get_visible_devices("GPU")] == list(indices)


def _set_logical(index: int, limits: tuple) -> None:
    import tensorflow as tf

    tf.config.set_logical_device_configuration(
        _gpu(index), [tf.config.LogicalDeviceConfiguration(memory_limit=mib) for mib in limits])


def _logical_in_effect(index: int, limits: tuple) -> bool:
    import tensorflow as tf

    configs = tf.config.get_logical_device_configuration(_gpu(index)) or []
    return [config.memory_limit for config in configs] == list(limits)


def _set_growth(index: int, growth: bool) -> None:
    import tensorflow as tf

    tf.config.experimental.set_memory_growth(_gpu(index), growth)


def _growth_in_effect(index: int, growth: bool) -> bool:
    import tensorflow as tf

    return tf.config.experimental.get_memory_growth(_gpu(index)) == growth


def _logical_configs(limits: Iterable) -> str:
    return "[" + ", ".join(f"tf.config.LogicalDeviceConfiguration(memory_limit={limit})"
                           for limit in limits) + "]"


def logical_step(index: int, limits: tuple) -> Step:
    """The step that splits physical GPU `index` into logical devices of these MiB limits."""
    return Step("set_gpu_logical_devices", (index, tuple(limits)),
                f"tf.config.set_logical_device_configuration(gpus[{index}], "
                f"{_logical_configs(limits)})", _set_logical, _logical_in_effect, needs=GPUS)


def check_fits(index: int, limits: tuple, inventory) -> None:
    """Raises DeviceError when logical devices need more memory than GPU `index` has."""
    total = inventory.gpu(index).memory_total_mib
    if total is not None and sum(limits) > total:
        raise DeviceError(
            f"virtual_gpus asks {sum(limits)} MiB in all on GPU {index}, which has "
            f"{total} MiB; accepted: memory limits whose sum is at most {total}")


def visible_step(indices: tuple) -> Step:
    """The step that leaves only these physical GPUs visible (TF2 keeps physical order)."""
    refs = ", ".join(f"gpus[{i}]" for i in indices)
    return Step("set_visible_gpus", (tuple(sorted(indices)),),
                f"tf.config.set_visible_devices([{refs}], 'GPU')", _set_visible,
                _visible_in_effect, needs=GPUS)


def growth_step(index: int, growth: bool) -> Step:
    return Step("set_memory_growth", (index, growth),
                f"tf.config.experimental.set_memory_growth(gpus[{index}], {growth})",
                _set_growth, _growth_in_effect, needs=GPUS)
