"""The Placement object both worlds return."""

import pytest

from tf1compat.shared.placement import PlacedOp, Placement, short_device, task_of

FULL = "/job:localhost/replica:0/task:0/device:{}"


def _placement():
    return Placement([
        PlacedOp("x", "_Arg", FULL.format("CPU:0")),
        PlacedOp("mm", "MatMul", FULL.format("CPU:1")),
        PlacedOp("mm/_1", "_Send", FULL.format("CPU:1")),
        PlacedOp("sum", "AddN", FULL.format("CPU:0")),
        PlacedOp("dup", "Identity", FULL.format("CPU:0"), "0"),
        PlacedOp("dup", "Identity", FULL.format("CPU:1"), "1"),
    ])


@pytest.mark.parametrize("spelling,expected", [
    ("/cpu:1", "CPU:1"), ("/device:GPU:0", "GPU:0"), ("CPU:3", "CPU:3"), ("gpu:2", "GPU:2"),
    ("/job:worker/replica:0/task:1/device:CPU:0", "CPU:0"), ("/device:TPU:10", "TPU:10"),
])
def test_short_device(spelling, expected):
    assert short_device(spelling) == expected


def test_task_of():
    assert task_of("/job:worker/replica:0/task:1/device:CPU:0") == "worker:1"
    assert task_of("/device:CPU:0") == ""


def test_lookups():
    placement = _placement()
    assert placement.device_of("mm") == "CPU:1"
    assert placement.ops_on("/cpu:0") == ["sum", "dup"]
    assert placement.ops_on("CPU:1", include_internal=True) == ["mm", "mm/_1", "dup"]
    assert placement.of_type("MatMul") == {"mm": "CPU:1"}
    assert placement.devices() == ["CPU:0", "CPU:1"]
    assert [op.name for op in placement.user_ops()] == ["mm", "sum", "dup", "dup"]


def test_unknown_name_lists_close_names():
    with pytest.raises(KeyError, match="close names: \\['mm'"):
        _placement().device_of("mmm")


def test_name_on_several_devices_is_ambiguous():
    placement = _placement()
    assert placement.devices_of("dup") == {"CPU:0", "CPU:1"}
    with pytest.raises(KeyError, match="several devices"):
        placement.device_of("dup")


def test_table_and_dict():
    placement = _placement()
    assert "MatMul" in placement.table() and "_Send" not in placement.table()
    assert "_Send" in placement.table(include_internal=True)
    assert placement.to_dict()[1] == {"name": "mm", "op": "MatMul",
                                      "device": FULL.format("CPU:1"), "graph": "session"}
