"""modern.plan: the TF2 calls for every option, on machines of 0, 1 and 4 GPUs."""

import pytest

from modern import Inventory, Status, plan
from modern.config import code_for
from tf1compat import DeviceError
from tf1compat.shared.errors import GpuMemoryUnknownError
from tf1compat.shared.option_table import OPTION_SPECS

NO_GPU = Inventory.simulated(0)
ONE_GPU = Inventory.simulated(1, memory_mib=16000)
FOUR_GPUS = Inventory.simulated(4, memory_mib=40000)


def _rows(inventory, **keywords):
    return {row.keyword: row for row in plan(inventory=inventory, **keywords)}


def _actions(row):
    return [(step.action, step.args) for step in row.steps]


# keyword -> (value, {gpus: (expected status, expected actions)})
EXPECTED = {
    "log_placement": (True, {n: ("applied", [("set_log_device_placement", (True,))])
                             for n in (0, 1, 4)}),
    "soft_placement": (True, {n: ("applied", [("set_soft_device_placement", (True,))])
                              for n in (0, 1, 4)}),
    "growth": (True, {
        0: ("not applicable", []),
        1: ("applied", [("set_memory_growth", (0, True))]),
        4: ("applied", [("set_memory_growth", (i, True)) for i in range(4)])}),
    "memory_fraction": (0.5, {
        0: ("not applicable", []),
        1: ("applied", [("set_gpu_logical_devices", (0, (8000,)))]),
        4: ("applied", [("set_gpu_logical_devices", (i, (20000,))) for i in range(4)])}),
    "visible_gpus": ((0,), {
        0: ("not applicable", []),
        1: ("applied", [("set_visible_gpus", ((0,),))]),
        4: ("applied", [("set_visible_gpus", ((0,),))])}),
    "gpus": (0, {
        0: ("not applicable", []),
        1: ("applied", [("set_visible_gpus", ((),))]),
        4: ("applied", [("set_visible_gpus", ((),))])}),
    "cpus": (3, {n: ("applied", [("set_cpu_logical_devices", (3,))]) for n in (0, 1, 4)}),
    "virtual_gpus": (((1000, 2000),), {
        0: ("not applicable", []),
        1: ("applied", [("set_gpu_logical_devices", (0, (1000, 2000)))]),
        4: ("applied", [("set_gpu_logical_devices", (0, (1000, 2000)))])}),
    "intra_op_threads": (2, {n: ("applied", [("set_intra_op_threads", (2,))]) for n in (0, 1, 4)}),
    "inter_op_threads": (1, {n: ("applied", [("set_inter_op_threads", (1,))]) for n in (0, 1, 4)}),
    "jit": ("on_1", {n: ("applied", [("set_jit", ("autoclustering",))]) for n in (0, 1, 4)}),
    "rewrite_options": ({"constant_folding": False}, {n: (
        "applied", [("set_optimizer_options", ((("constant_folding", False),),))])
        for n in (0, 1, 4)}),
    "allocator_type": ("BFC", {0: ("not applicable", []), 1: ("applied", []),
                               4: ("applied", [])}),
    "device_filters": (["/job:ps"], {n: ("not applicable", []) for n in (0, 1, 4)}),
}
MACHINES = {0: NO_GPU, 1: ONE_GPU, 4: FOUR_GPUS}


def test_every_option_has_plan_expectations():
    assert set(EXPECTED) == {spec.keyword for spec in OPTION_SPECS}


@pytest.mark.parametrize("gpus", [0, 1, 4])
@pytest.mark.parametrize("keyword", sorted(EXPECTED))
def test_plan_for_each_option_and_machine(keyword, gpus):
    value, per_machine = EXPECTED[keyword]
    status, actions = per_machine[gpus]
    row = _rows(MACHINES[gpus], **{keyword: value})[keyword]
    assert row.status.value == status, row.detail
    assert _actions(row) == actions
    if status == "not applicable" and keyword != "device_filters":
        assert "no GPU" in row.detail or "gpus=0" in row.detail


def test_plan_orders_visible_devices_before_logical_devices_and_growth():
    rows = plan(inventory=FOUR_GPUS, growth=True, visible_gpus="1,2", cpus=2, jit="on_1",
                virtual_gpus=[[1000, 1000]])
    order = [step.action for row in rows for step in row.steps]
    assert order.index("set_visible_gpus") < order.index("set_gpu_logical_devices")
    assert order.index("set_gpu_logical_devices") < order.index("set_environ")
    # virtual GPUs follow TF1's rule: the first entry belongs to the first visible GPU (1)
    logical = [s for row in rows for s in row.steps if s.action == "set_gpu_logical_devices"]
    assert logical[0].args == (1, (1000, 1000))


def test_growth_with_memory_fraction_is_approximated_not_dropped():
    rows = _rows(ONE_GPU, growth=True, memory_fraction=0.25)
    assert rows["memory_fraction"].status is Status.APPLIED
    assert rows["growth"].status is Status.APPROXIMATED
    assert _actions(rows["growth"]) == [("set_environ", ("TF_FORCE_GPU_ALLOW_GROWTH", "true"))]
    assert "logical devices" in rows["growth"].detail


def test_growth_with_virtual_gpus_is_approximated():
    rows = _rows(ONE_GPU, growth=True, virtual_gpus=[[4000, 4000]])
    assert rows["growth"].status is Status.APPROXIMATED


def test_fraction_is_ignored_where_virtual_gpus_give_limits_as_in_tf1():
    rows = _rows(FOUR_GPUS, memory_fraction=0.5, virtual_gpus=[[1000]], gpus=2)
    assert [s.args for s in rows["memory_fraction"].steps] == [(1, (20000,))]
    assert "virtual_gpus" in rows["memory_fraction"].detail


def test_environment_growth_override_is_reported():
    inventory = Inventory.simulated(1, environ={"TF_FORCE_GPU_ALLOW_GROWTH": "false"})
    row = _rows(inventory, growth=True)["growth"]
    assert row.status is Status.APPROXIMATED
    assert "TF_FORCE_GPU_ALLOW_GROWTH=false" in row.detail


def test_jit_on_2_is_approximated_and_off_is_applied():
    assert _rows(NO_GPU, jit="on_2")["jit"].status is Status.APPROXIMATED
    off = _rows(NO_GPU, jit="off")["jit"]
    assert off.status is Status.APPLIED and _actions(off) == [("set_jit", (False,))]


def test_unordered_visible_list_is_approximated():
    row = _rows(FOUR_GPUS, visible_gpus="2,0")["visible_gpus"]
    assert row.status is Status.APPROXIMATED
    assert _actions(row) == [("set_visible_gpus", ((0, 2),))]


def test_gpus_count_caps_the_visible_list():
    rows = _rows(FOUR_GPUS, gpus=2, growth=True)
    assert _actions(rows["gpus"]) == [("set_visible_gpus", ((0, 1),))]
    assert [s.args[0] for s in rows["growth"].steps] == [0, 1]


def test_missing_visible_gpu_is_an_error_naming_the_gpus():
    with pytest.raises(DeviceError, match=r"visible_gpus=\(5,\).*\[0, 1, 2, 3\]"):
        plan(inventory=FOUR_GPUS, visible_gpus=[5])


def test_more_virtual_gpu_entries_than_visible_gpus_is_an_error():
    with pytest.raises(DeviceError, match="2 entries"):
        plan(inventory=ONE_GPU, virtual_gpus=[[100], [100]])


def test_virtual_gpus_beyond_card_memory_is_an_error():
    with pytest.raises(DeviceError, match="17000 MiB.*16000 MiB"):
        plan(inventory=ONE_GPU, virtual_gpus=[[9000, 8000]])


def test_memory_fraction_without_memory_information_is_a_clear_error():
    from modern.inventory import GpuInfo

    unknown = Inventory((GpuInfo(0, "gpu", None),))
    with pytest.raises(GpuMemoryUnknownError, match="nvidia-ml-py"):
        plan(inventory=unknown, memory_fraction=0.5)


def test_unmapped_fields_are_reported_unsupported():
    import tensorflow as tf

    from tf1compat import SessionOptions

    proto = tf.compat.v1.ConfigProto(operation_timeout_in_ms=100)
    options = SessionOptions.from_config_proto(proto, unmapped="keep")
    row = _rows(NO_GPU, **{})  # nothing set
    assert row == {}
    rows = {r.keyword: r for r in plan(options, inventory=NO_GPU)}
    assert rows["passthrough"].status is Status.UNSUPPORTED
    assert "operation_timeout_in_ms" in rows["passthrough"].detail


def test_code_for_plan_is_valid_python_and_mentions_each_status():
    rows = plan(inventory=ONE_GPU, growth=True, memory_fraction=0.5, log_placement=True, cpus=2)
    code = code_for(rows)
    compile(code, "<explain>", "exec")
    assert "# growth=True: approximated" in code
    assert "memory_limit=8000" in code
    assert "tf.debugging.set_log_device_placement(True)" in code


def test_plan_of_a_config_proto_reports_its_unmapped_fields():
    import tensorflow as tf

    proto = tf.compat.v1.ConfigProto(device_count={"CPU": 2}, operation_timeout_in_ms=50)
    rows = {r.keyword: r for r in plan(proto, inventory=NO_GPU)}
    assert rows["cpus"].status is Status.APPLIED
    assert rows["passthrough"].status is Status.UNSUPPORTED
    assert "operation_timeout_in_ms" in rows["passthrough"].detail


def test_allocator_replaced_by_the_environment_is_approximated():
    inventory = Inventory.simulated(1, environ={"TF_GPU_ALLOCATOR": "cuda_malloc_async"})
    row = _rows(inventory, allocator_type="BFC")["allocator_type"]
    assert row.status is Status.APPROXIMATED
    assert "TF_GPU_ALLOCATOR=cuda_malloc_async" in row.detail
    assert "default GPU allocator" in _rows(ONE_GPU, allocator_type="BFC")["allocator_type"].detail


def test_device_filters_in_a_cluster_are_reported_with_the_tf2_call():
    inventory = Inventory.simulated(0, environ={"TF_CONFIG": '{"task": {"type": "worker"}}'})
    row = _rows(inventory, device_filters=["/job:ps"])["device_filters"]
    assert row.status is Status.UNSUPPORTED and not row.steps
    assert "ClusterDeviceFilters" in row.detail and "['/job:ps']" in row.detail
    assert "no cluster" in _rows(NO_GPU, device_filters=["/job:ps"])["device_filters"].detail


def test_grappler_options_can_change_after_the_runtime_started():
    [row] = plan(inventory=NO_GPU, rewrite_options={"remapping": False})
    assert not row.steps[0].fixed_at_start
    assert row.code == "tf.config.optimizer.set_experimental_options({'remapping': False})"
