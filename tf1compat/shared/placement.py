"""Placement as data: which op ran on which device, the same object for both worlds.

TensorFlow only prints placement (`log_device_placement`). `Placement` is read
from the partition graphs of a run instead: every node of every partition carries
the device it was placed on, after the placer and Grappler have done their
work, so it is where the op really ran.

Those nodes are not always the ops the user wrote: Grappler and oneDNN fuse,
rename and fold ops (`MatMul` + `BiasAdd` -> `_FusedMatMul`, named after the
BiasAdd). So a `Placement` also keeps the graph as written and answers for
each written op with the device of the node that did its work, saying how
(`fused into 'tower_0/add' (_FusedMatMul: BiasAdd)`); `tf1compat.shared.written_ops`
says how that is derived and why it is correct.

`tf1compat.placement.run` builds one for a TF1 session run and
`modern.placement.run` for TF2 functions and eager code, so both worlds are
checked with one set of assertions.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any, Iterable

from tf1compat.shared.written_ops import WrittenOpResolver

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
      op_type: the op, e.g. 'MatMul' (for a written op: the op the user wrote).
      device: the full device name the runtime assigned.
      graph: which graph it came from: 'session' for a TF1 run, or the index
        of the function graph for TF2 code.
      ran_as: for a written op, the node that did its work when that is not
        the op itself ('' otherwise).
      how: '' (ran as written), 'rewritten' (ran under its name as another op,
        or as a node Grappler named after it), 'fused' or 'folded' (its work
        was done by `ran_as`).
      note: the same in words, e.g. "fused into 'add' (_FusedMatMul: BiasAdd)".
    """

    name: str
    op_type: str
    device: str
    graph: str = "session"
    ran_as: str = ""
    how: str = ""
    note: str = ""

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

    def __init__(self, ops: Iterable[PlacedOp], written: Iterable[PlacedOp] = (),
                 not_run: Iterable[str] = ()):
        self.ops: tuple[PlacedOp, ...] = tuple(ops)
        self.written: tuple[PlacedOp, ...] = tuple(written)
        self._not_run = frozenset(not_run)

    @classmethod
    def from_graph_defs(cls, graph_defs: Iterable[Any], graph: str = "session",
                        written_graph: Any = None) -> "Placement":
        """From partition graphs, and the graph as written when it is known."""
        ran = [node for graph_def in graph_defs for node in graph_def.node]
        ops = [PlacedOp(node.name, node.op, node.device, graph) for node in ran]
        if written_graph is None:
            return cls(ops)
        written, not_run = resolve_written(written_graph, ran, graph)
        return cls(ops, written, not_run)

    @classmethod
    def merged(cls, placements: Iterable["Placement"]) -> "Placement":
        """One Placement of several graphs (the function graphs of a TF2 call)."""
        placements = list(placements)
        return cls([op for p in placements for op in p.ops],
                   [op for p in placements for op in p.written],
                   [name for p in placements for name in p._not_run])

    def __len__(self) -> int:
        return len(self.ops)

    def __iter__(self):
        return iter(self.ops)

    def user_ops(self) -> list[PlacedOp]:
        """The nodes that ran and are not partitioning plumbing (_Send, _Recv, _Arg, ...)."""
        return [op for op in self.ops if not op.internal]

    def written_ops(self) -> list[PlacedOp]:
        """The ops as the user wrote them (their own names and op types), each on the
        device of the node that did its work; see `PlacedOp.how`. Without the written
        graph (a Placement built from partition graphs alone): the nodes that ran."""
        if not self.written:
            return self.user_ops()
        return [op for op in self.written if not op.internal]

    def devices(self, include_internal: bool = False) -> list[str]:
        """The devices that ran at least one op, in short form, sorted."""
        ops = self.ops if include_internal else self.user_ops()
        return sorted({op.short_device for op in ops})

    def named(self, name: str) -> list[PlacedOp]:
        """The ops called `name`; failing that, those whose name ends in '/name'.

        Written ops come first (so a fused op answers with the device of the node
        it was fused into), then nodes that ran (Grappler's own, `_Send`, ...).
        The fallback finds ops under name scopes a caller did not write, such
        as the 'PartitionedCall/' of a tf.function inlined into another one.
        """
        for pool in (self.written, self.ops):
            exact = [op for op in pool if op.name == name]
            if exact:
                return exact
        for pool in (self.written, self.ops):
            scoped = [op for op in pool if op.name.endswith("/" + name)]
            if scoped:
                return scoped
        return []

    def devices_of(self, name: str) -> set[str]:
        """Every device that ran `name` or did its work (short form); see `named`."""
        found = {op.short_device for op in self.named(name)}
        if not found:
            if name in self._not_run:
                raise KeyError(f"op {name!r} is in the graph but did not run: nothing that ran "
                               "needs its value (not fetched, or pruned by Grappler)")
            names = sorted({op.name for op in self.written + self.ops} | self._not_run)
            close = difflib.get_close_matches(name, names, n=3)
            raise KeyError(f"no op named {name!r} ran; "
                           + (f"close names: {close}" if close else f"ops that ran: {names[:20]}"))
        return found

    def locate(self, name: str) -> PlacedOp:
        """The one op called `name`, with its device and how it ran (`how`, `note`).

        >>> p = Placement([PlacedOp('add', '_FusedMatMul', '/device:CPU:1')],
        ...               [PlacedOp('mm', 'MatMul', '/device:CPU:1', ran_as='add', how='fused',
        ...                         note="fused into 'add' (_FusedMatMul)")])
        >>> p.locate('mm').note
        "fused into 'add' (_FusedMatMul)"

        Raises:
          KeyError: as `device_of`.
        """
        self.device_of(name)
        return self.named(name)[0]

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
        """{name: short device} of every op of a type as written, e.g. of_type('MatMul').

        A MatMul fused into a `_FusedMatMul` is still a MatMul here; nodes that only
        exist after rewriting are found by their own type (of_type('_FusedMatMul')).
        """
        found = {op.name: op.short_device for op in self.written if op.op_type == op_type}
        for op in self.ops:
            if op.op_type == op_type:
                found.setdefault(op.name, op.short_device)
        return found

    def to_dict(self) -> list[dict[str, str]]:
        """The nodes that ran, then the written ops whose work another node did."""
        rows = [dict(name=op.name, op=op.op_type, device=op.device, graph=op.graph)
                for op in self.ops]
        rows += [dict(name=op.name, op=op.op_type, device=op.device, graph=op.graph,
                      ran_as=op.ran_as, how=op.how, note=op.note)
                 for op in self.written if op.how]
        return rows

    def table(self, include_internal: bool = False) -> str:
        """A readable table: op, type, device (and how, for ops that were rewritten)."""
        ops = list(self.written_ops())
        if include_internal:
            ops += [op for op in self.ops if op.internal]
        width = max((len(op.name) for op in ops), default=4)
        type_width = max((len(op.op_type) for op in ops), default=4)
        lines = [f"{'op':<{width}}  {'type':<{type_width}}  device"]
        lines += [f"{op.name:<{width}}  {op.op_type:<{type_width}}  {op.device}"
                  + (f"  ({op.note})" if op.note else "") for op in ops]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Placement({len(self.user_ops())} ops on {self.devices()})"


def resolve_written(written_graph: Any, ran: list[Any], graph: str) -> tuple[list[PlacedOp], list[str]]:
    """(a PlacedOp per written op that ran or whose work was done, names that did not run)."""
    resolver = WrittenOpResolver(written_graph.node, ran)
    written, not_run = [], []
    for node in written_graph.node:
        answers = resolver.resolve(node.name)
        if not answers:
            not_run.append(node.name)
        written += [PlacedOp(node.name, node.op, ran_node.device, graph,
                             ran_node.name if how else "", how, note)
                    for ran_node, how, note in answers]
    return written, not_run
