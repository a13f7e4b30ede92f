"""Keras 2's `keras.utils.multi_gpu_model`: one tower per device, each on a slice of the batch.

tf_keras dropped it (TF2's path is `tf.distribute.MirroredStrategy`). As Keras 2.0-2.3 had
it, `multi_gpu_model(model, gpus=2)` returns a model that splits each batch into `gpus`
parts along its first axis (the last part takes what is left), runs `model` on each part
under `/gpu:i`, and concatenates the parts' outputs on the CPU, so it computes what `model`
computes: the towers share `model`'s weights. The GPUs must be there (under
`tf1compat run --device-map 'gpu:*=cpu:*'` the mapped ones count, and the towers run on
the CPUs they map to).
"""

from __future__ import annotations

import importlib
from typing import Sequence, Union

from tf1compat.keras2 import V1_KERAS, backend


def _short(name: str) -> str:
    """'/job:localhost/replica:0/task:0/device:GPU:1' -> '/gpu:1'."""
    kind, _, index = name.rpartition("device:")[2].partition(":")
    return f"/{kind.lower()}:{index}"


def _gpu_ids(gpus: Union[int, Sequence[int], None]) -> list[int]:
    if isinstance(gpus, (list, tuple)):
        ids = list(gpus)
    elif isinstance(gpus, int) and not isinstance(gpus, bool):
        ids = list(range(gpus))
    else:
        ids = None
    if not ids or len(ids) < 2 or not all(isinstance(i, int) and i >= 0 for i in ids):
        raise ValueError(f"multi_gpu_model: gpus={gpus!r}; accepted: an int >= 2 or a list of "
                         "two or more GPU indices (for one GPU, use the model itself)")
    return ids


def _batch_part(data, index: int, parts: int):
    """Part `index` of `parts` of `data` along axis 0; the last part takes the remainder."""
    import tensorflow as tf

    size = tf.shape(data)[0]
    step = size // parts
    start = step * index
    stop = size if index == parts - 1 else start + step
    return data[start:stop]


def multi_gpu_model(model, gpus: Union[int, Sequence[int], None] = None, cpu_merge: bool = True,
                    cpu_relocation: bool = False):
    """A model running `model` on `gpus` GPUs, each on its slice of the batch.

    Raises:
      ValueError: `gpus` is not two or more GPUs, or the machine (or the run's device map)
        lacks one of them.
    """
    import tensorflow as tf

    keras = importlib.import_module(V1_KERAS)
    ids = _gpu_ids(gpus)
    available = {_short(name) for name in backend._get_available_gpus()}
    wanted = [f"/gpu:{i}" for i in ids]
    missing = [device for device in wanted if device not in available]
    if missing:
        raise ValueError(f"multi_gpu_model: gpus={gpus!r} needs {', '.join(wanted)}, but this "
                         f"process has {', '.join(sorted(available)) or 'no GPU'}; on a machine "
                         "without them, run it under tf1compat run --device-map 'gpu:*=cpu:*' "
                         "with as many CPUs (--cpus N)")
    if cpu_relocation:
        with tf.device("/cpu:0"):
            model = keras.models.clone_model(model)
    outputs_per_tower = []
    for part, gpu in enumerate(ids):
        with tf.device(f"/gpu:{gpu}"), tf.compat.v1.name_scope(f"replica_{gpu}"):
            inputs = [keras.layers.Lambda(_batch_part, arguments={"index": part,
                                                                  "parts": len(ids)})(x)
                      for x in model.inputs]
            outputs = model(inputs if len(inputs) > 1 else inputs[0])
            outputs_per_tower.append(outputs if isinstance(outputs, list) else [outputs])
    with tf.device("/cpu:0" if cpu_merge else None):
        merged = [keras.layers.concatenate([tower[k] for tower in outputs_per_tower], axis=0,
                                           name=name)
                  for k, name in enumerate(model.output_names)]
    return keras.models.Model(model.inputs, merged)
