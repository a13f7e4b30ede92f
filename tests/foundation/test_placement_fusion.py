"""Placement answers for the ops the user wrote, after Grappler and oneDNN rewrote them.

The end-to-end tests run in fresh processes under both oneDNN settings (the
variable is read when TensorFlow loads), so they hold on every x86-64 CPU.
"""

from types import SimpleNamespace

import pytest

from isolated import run_json
from tf1compat.placement import Placement, PlacedOp, resolve_written
from tf1compat.written_ops import WrittenOpResolver


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


TF1_FUSION = """
import json, os
import numpy as np
import tensorflow as tf
import tf1compat
from tf1compat import placement

with tf1compat.session(cpus=2) as sess:
    x = tf.compat.v1.placeholder(tf.float32, [4, 3], name="x")
    with tf.device("/cpu:1"):
        w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        b = tf.compat.v1.placeholder(tf.float32, [2], name="b")
        y = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w, name="mm"), b, name="bias"), name="relu")
    total = tf.reduce_sum(y, name="total")
    unused = tf.identity(x, name="unused")
    value, where = placement.run(sess, total, {x: np.ones((4, 3)), b: [1.0, -1.0]})
op = where.locate("mm")
absorber = [o for o in where.ops if o.name == op.ran_as]
print(json.dumps({"value": float(value), "device": op.short_device, "how": op.how,
                  "note": op.note, "ran_as_type": absorber[0].op_type if absorber else None,
                  "absorber_device": absorber[0].short_device if absorber else None,
                  "of_type": where.of_type("MatMul"), "total": where.device_of("total"),
                  "table_has_note": op.note in where.table()}))
"""

TF2_FUSION = """
import json
import numpy as np
from modern import devices, placement
devices.split_cpu(2)
import tensorflow as tf

@tf.function
def step(x, b):
    with tf.device("/cpu:1"):
        w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
        y = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w, name="mm"), b, name="bias"), name="relu")
    return tf.reduce_sum(y, name="total")

value, where = placement.run(step, tf.ones((4, 3)), tf.constant([1.0, -1.0]))
op = where.locate("mm")
absorber = [o for o in where.ops if o.name == op.ran_as]
print(json.dumps({"value": float(value), "device": op.short_device, "how": op.how,
                  "note": op.note, "ran_as_type": absorber[0].op_type if absorber else None,
                  "absorber_device": absorber[0].short_device if absorber else None,
                  "of_type": where.of_type("MatMul"), "total": where.device_of("total"),
                  "table_has_note": op.note in where.table()}))
"""


@pytest.mark.parametrize("onednn", ["1", "0"])
@pytest.mark.parametrize("side", ["tf1", "tf2"])
def test_a_fused_matmul_is_reported_on_its_fused_node_under_both_onednn_settings(side, onednn):
    facts = run_json(TF1_FUSION if side == "tf1" else TF2_FUSION,
                     env={"TF_ENABLE_ONEDNN_OPTS": onednn})
    # x @ w = [[6, 9]] per row (ones times column sums), + b, relu: (7 + 8) * 4 rows.
    assert facts["value"] == pytest.approx(60.0, rel=1e-6)
    # Grappler's remapper fuses MatMul + BiasAdd + Relu on every CPU; oneDNN renames
    # the fused node again. Either way the MatMul reports the node that did its work.
    assert facts["how"] == "fused"
    assert "Fused" in facts["ran_as_type"]
    assert facts["note"].startswith("fused into 'relu' (")
    assert facts["device"] == facts["absorber_device"] == "CPU:1"
    assert facts["of_type"]["mm"] == "CPU:1"
    assert facts["total"] == "CPU:0"
    assert facts["table_has_note"]
