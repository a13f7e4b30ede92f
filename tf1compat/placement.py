"""Placement as data: which op ran on which device, for a TF1 session run.

TensorFlow only prints placement (`log_device_placement`). This module reads
the partition graphs of a run instead: every node of every partition carries
the device it was placed on, after the placer and Grappler have done their
work, so it is where the op really ran.

`modern.placement` returns the same `Placement` object for TF2 functions and
eager code.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any, Iterable, Optional

# Nodes the runtime adds when it partitions a graph; they are real (they run),
# but they are not ops the user wrote.
INTERNAL_OP_TYPES = frozenset({"_Send", "_Recv", "_HostSend", "_HostRecv", "_Arg",
                               "_Retval", "_DeviceArg", "_DeviceRetval", "NoOp"})

_DEVICE_RE = re.compile(r"(?:device:)?(?P<type>[A-Za-z_]+):(?P<index>\d+)\s*$")


def short_device(device: str) -> str:
    """'/job:localhost/replica:0/task:0/device:CPU:1' or '/cpu:1' -> 'CPU:1'.

    >>> short_device('/job:localhost/replica:0/task:0/device:CPU:1')
    'CPU:1'
    >>> short_device('/gpu:0')
    'GPU:0'
    """
    last = device.strip().rstrip("/").split("/")[-1]
    match = _DEVICE_RE.search(last)
    if not match:
        return device
    return f"{match.group('type').upper()}:{int(match.group('index'))}"


def task_of(device: str) -> str:
    """'/job:worker/replica:0/task:1/device:CPU:0' -> 'worker:1' ('' when absent)."""
    job = re.search(r"/job:([^/]+)", device)
    task = re.search(r"/task:(\d+)", device)
    if not job:
        return ""
    return f"{job.group(1)}:{task.group(1) if task else 0}"


@dataclasses.dataclass(frozen=True)
class PlacedOp:
    """One node that ran, and where.

    Attributes:
      name: the node name (as the user named it, unless Grappler rewrote it).
      op_type: the op, e.g. 'MatMul'.
      device: the full device name the runtime assigned.
      graph: which graph it came from: 'session' for a TF1 run, or the index
        of the function graph for TF2 code.
    """

    name: str
    op_type: str
    device: str
    graph: str = "session"

    @property
    def short_device(self) -> str:
        return short_device(self.device)

    @property
    def internal(self) -> bool:
        return self.op_type in INTERNAL_OP_TYPES


class Placement:
    """The placement of every node of a run, as data.

    >>> p = Placement([PlacedOp('mm', 'MatMul', '/job:localhost/replica:0/task:0/device:CPU:1')])
    >>> p.device_of('mm')
    'CPU:1'
    """

    def __init__(self, ops: Iterable[PlacedOp]):
        self.ops: tuple[PlacedOp, ...] = tuple(ops)

    @classmethod
    def from_graph_defs(cls, graph_defs: Iterable[Any], graph: str = "session") -> "Placement":
        return cls(PlacedOp(node.name, node.op, node.device, graph)
                   for graph_def in graph_defs for node in graph_def.node)

    def __len__(self) -> int:
        return len(self.ops)

    def __iter__(self):
        return iter(self.ops)

    def user_ops(self) -> list[PlacedOp]:
        """The ops that are not partitioning plumbing (_Send, _Recv, _Arg, ...)."""
        return [op for op in self.ops if not op.internal]

    def devices(self, include_internal: bool = False) -> list[str]:
        """The devices that ran at least one op, in short form, sorted."""
        ops = self.ops if include_internal else self.user_ops()
        return sorted({op.short_device for op in ops})

    def named(self, name: str) -> list[PlacedOp]:
        """The nodes called `name`; failing that, those whose name ends in '/name'.

        The fallback finds ops under name scopes a caller did not write, such
        as the 'PartitionedCall/' of a tf.function inlined into another one.
        """
        exact = [op for op in self.ops if op.name == name]
        return exact or [op for op in self.ops if op.name.endswith("/" + name)]

    def devices_of(self, name: str) -> set[str]:
        """Every device that ran a node called `name` (short form); see `named`."""
        found = {op.short_device for op in self.named(name)}
        if not found:
            names = sorted({op.name for op in self.ops})
            close = difflib.get_close_matches(name, names, n=3)
            raise KeyError(f"no op named {name!r} ran; "
                           + (f"close names: {close}" if close else f"ops that ran: {names[:20]}"))
        return found

    def device_of(self, name: str) -> str:
        """The device that ran the node called `name` (short form, e.g. 'CPU:1').

        Raises:
          KeyError: no such node ran (the message lists close names), or nodes
            of that name ran on several devices.
        """
        found = self.devices_of(name)
        if len(found) > 1:
            raise KeyError(f"ops named {name!r} ran on several devices: {sorted(found)}")
        return next(iter(found))

    def ops_on(self, device: str, include_internal: bool = False) -> list[str]:
        """Names of the ops that ran on `device` (any spelling: '/cpu:1', 'CPU:1')."""
        wanted = short_device(device)
        ops = self.ops if include_internal else self.user_ops()
        return [op.name for op in ops if op.short_device == wanted]

    def of_type(self, op_type: str) -> dict[str, str]:
        """{name: short device} of every op of a type, e.g. of_type('MatMul')."""
        return {op.name: op.short_device for op in self.ops if op.op_type == op_type}

    def to_dict(self) -> list[dict[str, str]]:
        return [dict(name=op.name, op=op.op_type, device=op.device, graph=op.graph)
                for op in self.ops]

    def table(self, include_internal: bool = False) -> str:
        """A readable table: op, type, device."""
        ops = self.ops if include_internal else self.user_ops()
        width = max((len(op.name) for op in ops), default=4)
        type_width = max((len(op.op_type) for op in ops), default=4)
        lines = [f"{'op':<{width}}  {'type':<{type_width}}  device"]
        lines += [f"{op.name:<{width}}  {op.op_type:<{type_width}}  {op.device}" for op in ops]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Placement({len(self.user_ops())} ops on {self.devices()})"


def run(session, fetches, feed_dict: Optional[dict] = None, options=None):
    """Runs `fetches` in a TF1 session and returns (values, Placement).

    Args:
      session: a `tf.compat.v1.Session` (e.g. from `tf1compat.session()`).
      fetches, feed_dict: as for `Session.run`.
      options: optional `RunOptions` to start from; partition graphs are added.

    Returns:
      (what `session.run` returns, a `Placement` of every node of the run).
    """
    from tensorflow.core.protobuf import config_pb2

    run_options = config_pb2.RunOptions()
    if options is not None:
        run_options.CopyFrom(options)
    run_options.output_partition_graphs = True
    metadata = config_pb2.RunMetadata()
    values = session.run(fetches, feed_dict=feed_dict, options=run_options,
                         run_metadata=metadata)
    return values, Placement.from_graph_defs(metadata.partition_graphs)
