"""Placement answers for the ops the user wrote, after Grappler and oneDNN rewrote them.

These tests hold the resolution rules on small graphs; the towers suite
(tests/towers/suite.py) proves them on real fused runs of both sides, and CI
runs it with oneDNN on and off.
"""

from types import SimpleNamespace

import pytest

from tf1compat.shared.placement import Placement, PlacedOp, resolve_written
from tf1compat.shared.written_ops import WrittenOpResolver


def _node(name, op, device="/device:CPU:0", inputs=()):
    return SimpleNamespace(name=name, op=op, device=device, input=list(inputs))


# A MatMul + BiasAdd + Relu chain on CPU:1 as written; a second, unused MatMul
# needed only through a control edge; a fed placeholder and a Grappler-made node.
WRITTEN = SimpleNamespace(node=[
    _node("x", "Placeholder"),
    _node("w", "Const"),
    _node("mm", "MatMul", "/device:CPU:1", ["x", "w"]),
    _node("bias", "BiasAdd", "/device:CPU:1", ["mm", "w"]),
    _node("relu", "Relu", "/device:CPU:1", ["bias"]),
    _node("unused_grad", "MatMul", inputs=["x", "w"]),
    _node("group", "NoOp", inputs=["^unused_grad"]),
    _node("a", "Const"),
    _node("b", "Const"),
    _node("sum", "AddN", inputs=["a", "b"]),
    _node("out", "Identity", inputs=["relu", "^group", "sum"]),
])
RAN = [
    _node("_arg_x_0_0", "_Arg"),
    _node("w", "Const"),
    _node("relu", "_FusedMatMul", "/device:CPU:1", ["_arg_x_0_0", "w", "w"]),
    _node("ArithmeticOptimizer/SimplifyAggregation_Mul_sum", "Mul"),
    _node("out", "Identity", inputs=["relu", "ArithmeticOptimizer/SimplifyAggregation_Mul_sum"]),
]


def _placement():
    written, not_run = resolve_written(WRITTEN, RAN, "session")
    return Placement([PlacedOp(n.name, n.op, n.device) for n in RAN], written, not_run)


def test_fused_ops_answer_with_the_device_of_the_fused_node():
    where = _placement()
    for name in ("mm", "bias"):
        op = where.locate(name)
        assert (op.short_device, op.how, op.ran_as) == ("CPU:1", "fused", "relu")
        assert op.note == "fused into 'relu' (_FusedMatMul)"
    assert where.locate("relu").note == "ran as _FusedMatMul"
    assert where.of_type("MatMul") == {"mm": "CPU:1"}
    assert where.of_type("_FusedMatMul") == {"relu": "CPU:1"}


def test_feeds_and_grappler_made_nodes_answer_for_the_written_op():
    where = _placement()
    assert where.locate("x").note == "fed as '_arg_x_0_0' (_Arg)"
    assert where.locate("sum").ran_as == "ArithmeticOptimizer/SimplifyAggregation_Mul_sum"
    assert where.locate("sum").how == "rewritten"


def test_an_op_needed_only_through_a_pruned_control_edge_did_not_run():
    where = _placement()
    with pytest.raises(KeyError, match="'unused_grad' is in the graph but did not run"):
        where.device_of("unused_grad")
    with pytest.raises(KeyError, match=r"close names: \['mm'"):
        where.device_of("mmm")


def test_resolver_follows_only_data_edges_through_ops_that_are_gone():
    resolver = WrittenOpResolver(WRITTEN.node, RAN)
    assert [(ran.name, how) for ran, how, _ in resolver.resolve("mm")] == [("relu", "fused")]
    assert resolver.resolve("group") == []
