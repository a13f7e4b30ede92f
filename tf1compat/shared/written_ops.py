"""Where each op the user wrote ran, after Grappler and oneDNN rewrote the graph.

The partition graphs of a run say where every node that *ran* was placed, but
the nodes that ran are not always the ops the user wrote:

- Grappler's remapper fuses MatMul + BiasAdd (+ Relu), Conv2D + BiasAdd, ...
  into one `_FusedMatMul` / `_FusedConv2D` node named after the *last* op of
  the pattern; the other ops of the pattern no longer exist.
- With oneDNN on (the default on CPUs with AVX-512 or AMX), its layout pass
  renames ops (`MatMul` -> `_MklMatMul`) and fuses further patterns
  (MatMul + AddV2 + Relu -> `_MklNativeFusedMatMul`).
- The constant folder and the arithmetic optimizer replace nodes by constants
  or by new nodes (`ArithmeticOptimizer/SimplifyAggregation_Mul_sum`).
- A fed placeholder runs as an `_Arg` node (`_arg_x_0_0`).

Neither TensorFlow nor oneDNN records which original ops a rewritten node
came from (`NodeDef.experimental_debug_info` stays empty for these passes on
TF 2.21), so this module derives it from the dataflow of the graph as
written (the session's GraphDef, or a function's pre-optimization graph):

1. an op whose name is still in the partition graphs ran there, possibly as
   another op type (`ran as _MklMatMul`);
2. a fed placeholder is the `_Arg` node TensorFlow names after it;
3. an op replaced by a node Grappler named after it (`<Stage>Optimizer/..._name`,
   `ConstantFolding/...name...`) ran as that node;
4. any other op that is gone was either pruned (nothing that ran consumes its
   value: it did not run) or absorbed: its value only reaches nodes that ran
   through nodes that are gone too, so those first nodes that ran computed
   it. When such a node is a fused op, the op was fused into it.

Why 4 is correct: a rewrite never changes what a node computes, so if a
value the user wrote is needed by a node that ran, some node that ran
computed it; fusions (the only rewrites that absorb an op into another
node) replace a chain of consumers by a node at the chain's end, on the same
device, which is exactly the first node that ran on the chain. Only data
edges are followed: an op needed only through a control edge that Grappler
pruned (the unused input gradient of a MatMul, say) did not run, and is not
reported as run.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any, Iterable, Iterator

# Grappler names the nodes it creates after the stage that made them.
_GRAPPLER_PREFIX = re.compile(r"^[A-Za-z]+(?:Optimizer|Folding|Remapper|Pruner)/")


def _input_name(spelling: str) -> str:
    """'^a' -> '' (a control edge); 'a:1' -> 'a'."""
    if spelling.startswith("^"):
        return ""
    return spelling.split(":", 1)[0]


def _arg_name(node_name: str) -> str:
    """The `_Arg` node name TensorFlow gives a fed tensor '<node>:0'."""
    return "_arg_" + re.sub(r"[^A-Za-z0-9_]", "_", node_name) + "_0_"


def _fusion_note(node: Any) -> str:
    """'_FusedMatMul: BiasAdd+Relu' for a fused node (its `fused_ops` attr), else the op."""
    attrs = getattr(node, "attr", None)
    if attrs is None or "fused_ops" not in attrs:
        return node.op
    ops = [op.decode() for op in attrs["fused_ops"].list.s]
    return f"{node.op}: {'+'.join(ops)}" if ops else node.op


class WrittenOpResolver:
    """Maps each node of the written graph to the node(s) that ran its work.

    Args:
      written: NodeDefs of the graph as the user built it.
      ran: NodeDefs of the partition graphs of the run (name, op, device).
    """

    def __init__(self, written: Iterable[Any], ran: Iterable[Any]):
        self.written = {node.name: node for node in written}
        self.ran: dict[str, Any] = {}
        for node in ran:
            self.ran.setdefault(node.name, node)
        self._consumers: dict[str, list[str]] = {}
        for node in self.written.values():
            for spelling in node.input:
                source = _input_name(spelling)
                if source:
                    self._consumers.setdefault(source, []).append(node.name)
        self._renamed = self._grappler_renamed()
        self._args = {name: node for name, node in self.ran.items() if node.op == "_Arg"}

    def _grappler_renamed(self) -> dict[str, list[Any]]:
        """Grappler-made nodes by the written name they end with (longest name wins)."""
        found: dict[str, list[Any]] = {}
        for name, node in self.ran.items():
            if name in self.written or not _GRAPPLER_PREFIX.match(name):
                continue
            owners = [written for written in self.written
                      if name.endswith("_" + written) or name.endswith("/" + written)]
            if owners:
                found.setdefault(max(owners, key=len), []).append(node)
        return found

    def resolve(self, name: str) -> list[tuple[Any, str, str]]:
        """[(node that ran, how, note)] for the written op `name`; [] when it did not run.

        `how` is '' (ran as written), 'rewritten', 'fused' or 'folded'.
        """
        node = self.written[name]
        if name in self.ran:
            ran = self.ran[name]
            if ran.op == node.op:
                return [(ran, "", "")]
            return [(ran, "rewritten", f"ran as {_fusion_note(ran)}")]
        if node.op in ("Placeholder", "PlaceholderWithDefault"):
            prefix = _arg_name(name)
            args = [arg for arg_name, arg in self._args.items() if arg_name.startswith(prefix)]
            if args:
                return [(args[0], "rewritten", f"fed as {args[0].name!r} (_Arg)")]
        if name in self._renamed:
            return [(ran, "rewritten", f"rewritten by Grappler as {ran.name!r} ({ran.op})")
                    for ran in self._renamed[name]]
        return self._absorbed(name)

    def _absorbed(self, name: str) -> list[tuple[Any, str, str]]:
        frontier = list(self._first_consumers_that_ran(name))
        by_device: dict[str, Any] = {}
        for ran in frontier:
            by_device.setdefault(ran.device, ran)
        answers = []
        for ran in by_device.values():
            written = self.written.get(ran.name)
            fused = "Fused" in ran.op and (written is None or written.op != ran.op)
            how = "fused" if fused else "folded"
            verb = "fused into" if fused else "folded into"
            answers.append((ran, how, f"{verb} {ran.name!r} ({_fusion_note(ran)})"))
        return answers

    def _first_consumers_that_ran(self, name: str) -> Iterator[Any]:
        seen = {name}
        queue = deque([name])
        while queue:
            for consumer in self._consumers.get(queue.popleft(), ()):
                if consumer in seen:
                    continue
                seen.add(consumer)
                if consumer in self.ran:
                    yield self.ran[consumer]
                elif consumer in self._renamed:
                    yield from self._renamed[consumer]
                else:
                    queue.append(consumer)
