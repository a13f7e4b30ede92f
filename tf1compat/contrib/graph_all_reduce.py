"""`tf.contrib.all_reduce`: graph-built all-reduce across devices, as TF 1.15 offered it.

TF 1.15 kept this module as `tensorflow.python.distribute.all_reduce` and re-exported it as
`tf.contrib.all_reduce.python.all_reduce` (tf_cnn_benchmarks' `--all_reduce_spec` builds on
it); TF 2.21 has neither. Each builder takes one tensor per device (all of one shape and
dtype, each placed on its device) and returns one tensor per device, in the same order and
on the same device, holding the reduction of all of them (then `un_op`, when given):

- `build_ring_all_reduce`: each tensor is cut into `len(devices) * num_subchunks` chunks;
  every chunk is reduced hop by hop around a ring of the devices (workers in order, the GPUs
  of each in `gpu_perm` order; odd subchunks go round the other way), then passed on around
  the ring so that every device holds it.
- `build_recursive_hd_all_reduce`: recursive halving (pairs of devices `d` and `d ^ span`
  each keep and reduce one half) then doubling (the halves exchanged back); the number of
  devices must be a power of two, and divide the number of values, as in TF 1.15.
- `build_shuffle_all_reduce`: the tensors are cut into one piece per gather device, each
  piece reduced there with the n-ary `red_op` (`tf.add_n`), and the pieces sent back.
- `build_nccl_all_reduce`: NCCL's all-sum (GPUs only; `red_op` must be `tf.add`).
- the two-level forms (`build_nccl_then_*`, `build_shuffle_then_*`) reduce within each task
  (the devices of one `/job:X/task:N`) first, run the second algorithm across the tasks, and
  hand the result back to every device of each task.

`red_op` is a binary op (`tf.add`) for the ring and halving-doubling, an n-ary one
(`tf.add_n`) for shuffle, as in TF 1.15. The sums are the same as TF 1.15's; which partial
sums are added first may differ, so floats may differ in their last bits.
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import tensorflow as tf

_v1 = tf.compat.v1


def _checked(input_tensors: Sequence, least: int = 1) -> list:
    tensors = list(input_tensors)
    if len(tensors) < least:
        raise ValueError(f"input_tensors: {len(tensors)} tensor(s) given; expected one per "
                         f"device, {least} or more")
    shape = tensors[0].shape
    for tensor in tensors[1:]:
        if not tensor.shape.is_compatible_with(shape) or tensor.dtype != tensors[0].dtype:
            raise ValueError(f"input_tensors: {tensor.name} is {tensor.dtype.name}{tensor.shape}"
                             f" where {tensors[0].name} is {tensors[0].dtype.name}{shape}: "
                             "expected one shape and dtype on every device")
    return tensors


def _on(device: str, make: Callable, *args):
    with _v1.device(device):
        return make(*args)


def _flat_padded(tensors: list, multiple: int) -> tuple[list, list[int], int]:
    """Each tensor flattened on its device and padded with zeros to a multiple of `multiple`;
    with the tensors' shape and the padding length."""
    size = tensors[0].shape.num_elements()
    if size is None:  # only known when the graph runs
        raise ValueError("input_tensors: the shape must be fully defined to cut it into chunks, "
                         f"got {tensors[0].shape}")
    padding = (-size) % multiple
    flats = []
    for tensor in tensors:
        with _v1.device(tensor.device):
            flat = tf.reshape(tensor, [-1])
            if padding:
                flat = tf.concat([flat, tf.zeros([padding], dtype=flat.dtype)], 0)
            flats.append(flat)
    return flats, tensors[0].shape.as_list(), padding


def _flat_pieces(tensors: list, pieces: int) -> tuple[list[list], list[int], int]:
    """`_flat_padded`, each cut into `pieces` equal pieces on its device."""
    flats, shape, padding = _flat_padded(tensors, pieces)
    return [_on(tensor.device, tf.split, flat, pieces, 0)
            for tensor, flat in zip(tensors, flats)], shape, padding


def _joined(pieces: list, device: str, shape, padding: int):
    """The pieces held on `device` put back together in the input's shape."""
    with _v1.device(device):
        flat = tf.concat(pieces, 0) if len(pieces) > 1 else tf.identity(pieces[0])
        if padding:
            flat = flat[:-padding]
        return tf.reshape(flat, shape)


def _finished(outputs: list, devices: list, un_op: Optional[Callable]) -> list:
    if un_op is None:
        return outputs
    return [_on(device, un_op, output) for device, output in zip(devices, outputs)]


def _ring(num_workers: int, gpu_perm: Sequence[int], count: int) -> list[int]:
    per_worker = len(gpu_perm)
    if num_workers < 1 or per_worker < 1 or num_workers * per_worker != count:
        raise ValueError(f"num_workers={num_workers} with gpu_perm={list(gpu_perm)}: expected "
                         f"num_workers * len(gpu_perm) == the {count} input tensors")
    if sorted(gpu_perm) != list(range(per_worker)):
        raise ValueError(f"gpu_perm={list(gpu_perm)}: expected a permutation of "
                         f"0..{per_worker - 1}")
    return [worker * per_worker + gpu for worker in range(num_workers) for gpu in gpu_perm]


def build_ring_all_reduce(input_tensors, num_workers, num_subchunks, gpu_perm, red_op,
                          un_op=None):
    """All-reduce around a ring of the devices; see the module's docstring."""
    tensors = _checked(input_tensors, least=2)
    if num_subchunks < 1:
        raise ValueError(f"num_subchunks={num_subchunks}: expected 1 or more")
    devices = [tensor.device for tensor in tensors]
    ring = _ring(num_workers, gpu_perm, len(tensors))
    count = len(tensors)
    chunks, shape, padding = _flat_pieces(tensors, count * num_subchunks)
    held: list[list] = [[None] * (count * num_subchunks) for _ in tensors]
    for subchunk in range(num_subchunks):
        order = ring if subchunk % 2 == 0 else ring[::-1]
        for start in range(count):
            chunk = subchunk * count + start
            # reduced hop by hop, ending on the device at ring position `start`
            position = (start + 1) % count
            total = chunks[order[position]][chunk]
            for _ in range(count - 1):
                position = (position + 1) % count
                device = order[position]
                total = _on(devices[device], red_op, total, chunks[device][chunk])
            held[order[position]][chunk] = total
            for _ in range(count - 1):  # and passed on until every device has it
                position = (position + 1) % count
                device = order[position]
                total = _on(devices[device], tf.identity, total)
                held[device][chunk] = total
    outputs = [_joined(held[index], devices[index], shape, padding) for index in range(count)]
    return _finished(outputs, devices, un_op)


def build_recursive_hd_all_reduce(input_tensors, red_op, un_op=None):
    """All-reduce by recursive halving and doubling; see the module's docstring."""
    tensors = _checked(input_tensors)
    count = len(tensors)
    if count & (count - 1):
        raise ValueError(f"input_tensors: {count} devices; recursive halving-doubling needs a "
                         "power of two")
    devices = [tensor.device for tensor in tensors]
    if count == 1:
        return _finished([_on(devices[0], tf.identity, tensors[0])], devices, un_op)
    size = tensors[0].shape.num_elements()
    if size is not None and size % count:  # TF 1.15 halved without padding, and refused this
        raise ValueError(f"input_tensors: {size} values per tensor; recursive halving-doubling "
                         f"over {count} devices needs a multiple of {count}")
    current, shape, padding = _flat_padded(tensors, count)
    spans = [1 << level for level in reversed(range(int(math.log2(count))))]
    for span in spans:  # halving: the lower device of a pair keeps the first half
        after = list(current)
        for low in range(count):
            high = low ^ span
            if high < low:
                continue
            low_halves = _on(devices[low], tf.split, current[low], 2, 0)
            high_halves = _on(devices[high], tf.split, current[high], 2, 0)
            after[low] = _on(devices[low], red_op, low_halves[0], high_halves[0])
            after[high] = _on(devices[high], red_op, low_halves[1], high_halves[1])
        current = after
    for span in reversed(spans):  # doubling: both get the pair's halves, in order
        after = list(current)
        for low in range(count):
            high = low ^ span
            if high < low:
                continue
            after[low] = _on(devices[low], tf.concat, [current[low], current[high]], 0)
            after[high] = _on(devices[high], tf.concat, [current[low], current[high]], 0)
        current = after
    outputs = [_joined([current[d]], devices[d], shape, padding) for d in range(count)]
    return _finished(outputs, devices, un_op)


def build_shuffle_all_reduce(input_tensors, gather_devices, red_op, un_op=None):
    """All-reduce through gather devices; see the module's docstring."""
    tensors = _checked(input_tensors)
    gather = list(gather_devices)
    if not gather:
        raise ValueError("gather_devices: empty; expected the devices to reduce on")
    devices = [tensor.device for tensor in tensors]
    pieces, shape, padding = _flat_pieces(tensors, len(gather))
    reduced = [_on(device, red_op, [pieces[d][index] for d in range(len(tensors))])
               for index, device in enumerate(gather)]
    if un_op is not None:  # once per piece, where it was reduced
        reduced = [_on(device, un_op, piece) for device, piece in zip(gather, reduced)]
    return [_joined(reduced, device, shape, padding) for device in devices]


def build_nccl_all_reduce(input_tensors, red_op, un_op=None):
    """NCCL's all-sum over the GPUs the tensors are on (`red_op` must be `tf.add`)."""
    from tf1compat.shared import tf_internals

    all_sum = tf_internals.resolve(tf_internals.NCCL_ALL_SUM)  # names itself when missing
    tensors = _checked(input_tensors)
    if getattr(red_op, "__name__", None) != "add":  # tf.add under any spelling
        raise ValueError(f"red_op={red_op!r}: NCCL's all-reduce sums only; pass tf.add")
    outputs = all_sum(tensors)
    return _finished(outputs, [tensor.device for tensor in tensors], un_op)


def _task_of(device: str) -> str:
    spec = tf.DeviceSpec.from_string(device)
    return f"/job:{spec.job}/replica:{spec.replica or 0}/task:{spec.task or 0}"


def _two_level(tensors: list, reduce_within: Callable[[list, int], list],
               across: Callable[[list], list], un_op: Optional[Callable]) -> list:
    """Reduces within each task (`reduce_within(task's tensors, task index)` -> one tensor
    on one of its devices), across tasks with `across`, then hands each task's result to its
    devices."""
    tasks: dict[str, list[int]] = {}
    for index, tensor in enumerate(tensors):
        tasks.setdefault(_task_of(tensor.device), []).append(index)
    groups = list(tasks.values())
    local = [reduce_within([tensors[i] for i in group], number)
             for number, group in enumerate(groups)]
    total = across(local) if len(local) > 1 else local
    outputs: list = [None] * len(tensors)
    for group, value in zip(groups, total):
        for index in group:
            outputs[index] = _on(tensors[index].device, tf.identity, value)
    return _finished(outputs, [tensor.device for tensor in tensors], un_op)


def _nccl_within(red_op):
    def reduce_within(group: list, _number: int):
        return group[0] if len(group) == 1 else build_nccl_all_reduce(group, red_op)[0]
    return reduce_within


def _shuffle_within(gather_devices: Sequence[str], red_n_op):
    def reduce_within(group: list, number: int):
        device = gather_devices[number % len(gather_devices)]
        return _on(device, red_n_op, group)
    return reduce_within


def build_nccl_then_ring(input_tensors, subdiv, red_op, un_op=None):
    """NCCL within each task, a ring (`subdiv` subchunks) across the tasks."""
    tensors = _checked(input_tensors)
    return _two_level(tensors, _nccl_within(red_op),
                      lambda local: build_ring_all_reduce(local, len(local), subdiv, [0], red_op),
                      un_op)


def build_nccl_then_recursive_hd(input_tensors, red_op, un_op=None):
    """NCCL within each task, recursive halving-doubling across the tasks."""
    tensors = _checked(input_tensors)
    return _two_level(tensors, _nccl_within(red_op),
                      lambda local: build_recursive_hd_all_reduce(local, red_op), un_op)


def build_nccl_then_shuffle(input_tensors, gather_devices, nccl_red_op, shuffle_red_op,
                            un_op=None):
    """NCCL within each task, shuffle through `gather_devices` across the tasks."""
    tensors = _checked(input_tensors)
    return _two_level(tensors, _nccl_within(nccl_red_op),
                      lambda local: build_shuffle_all_reduce(local, gather_devices,
                                                             shuffle_red_op), un_op)


def build_shuffle_then_ring(input_tensors, gather_devices, subdiv, red_n_op, red_op,
                            un_op=None):
    """Each task's tensors reduced on its gather device (`red_n_op`), a ring across tasks."""
    tensors = _checked(input_tensors)
    return _two_level(tensors, _shuffle_within(list(gather_devices), red_n_op),
                      lambda local: build_ring_all_reduce(local, len(local), subdiv, [0], red_op),
                      un_op)


def build_shuffle_then_shuffle(input_tensors, first_gather_devices, second_gather_devices,
                               red_op, un_op=None):
    """Each task's tensors reduced on its first-level gather device, then shuffled across the
    tasks through `second_gather_devices` (`red_op` n-ary at both levels)."""
    tensors = _checked(input_tensors)
    return _two_level(tensors, _shuffle_within(list(first_gather_devices), red_op),
                      lambda local: build_shuffle_all_reduce(local, second_gather_devices,
                                                             red_op), un_op)


__all__ = ["build_nccl_all_reduce", "build_nccl_then_recursive_hd", "build_nccl_then_ring",
           "build_nccl_then_shuffle", "build_recursive_hd_all_reduce", "build_ring_all_reduce",
           "build_shuffle_all_reduce", "build_shuffle_then_ring", "build_shuffle_then_shuffle"]
