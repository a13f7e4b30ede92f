"""Placement, CPU devices, thread pools and device filters, each declared once."""

from __future__ import annotations

import re
from typing import Any, Callable

from tf1compat.shared.option_spec import (
    BOOL_FLAG, INT_FLAG, Flag, MapEntry, OptionSpec, Portable, Reject, RepeatedText, Scalar,
    Status, Step, check_bool, check_int_at_least)
from tf1compat.shared.lazy_tf import tensorflow as _tf


def call_step(action: str, code: str, value: Any, run: Callable[[Any], None],
              read: Callable[[], Any] = None, fixed_at_start: bool = True) -> Step:
    """A step that calls one TF2 setter with `value`; `read` returns what TF2 has now."""
    in_effect = (lambda wanted: read() == wanted) if read is not None else None
    return Step(action, (value,), code, run, in_effect, fixed_at_start)


def _setter(keyword: str, action: str, template: str, run: Callable[[Any], None],
            read: Callable[[], Any] = None, fixed_at_start: bool = True):
    """The plan and the portable code of an option that is one TF2 setter call."""

    def plan(planner) -> None:
        value = getattr(planner.options, keyword)
        planner.add(keyword, Status.APPLIED,
                    [call_step(action, template.format(value), value, run, read, fixed_at_start)])

    def portable(value: Any, options) -> Portable:
        return Portable((template.format(value),))

    return plan, portable


_log_plan, _log_portable = _setter(
    "log_placement", "set_log_device_placement", "tf.debugging.set_log_device_placement({})",
    lambda value: _tf().debugging.set_log_device_placement(value), fixed_at_start=False)
_soft_plan, _soft_portable = _setter(
    "soft_placement", "set_soft_device_placement", "tf.config.set_soft_device_placement({})",
    lambda value: _tf().config.set_soft_device_placement(value), fixed_at_start=False)
_intra_plan, _intra_portable = _setter(
    "intra_op_threads", "set_intra_op_threads",
    "tf.config.threading.set_intra_op_parallelism_threads({})",
    lambda value: _tf().config.threading.set_intra_op_parallelism_threads(value),
    lambda: _tf().config.threading.get_intra_op_parallelism_threads())
_inter_plan, _inter_portable = _setter(
    "inter_op_threads", "set_inter_op_threads",
    "tf.config.threading.set_inter_op_parallelism_threads({})",
    lambda value: _tf().config.threading.set_inter_op_parallelism_threads(value),
    lambda: _tf().config.threading.get_inter_op_parallelism_threads())


# -- cpus ---------------------------------------------------------------------

_CPU_CODE = ("tf.config.set_logical_device_configuration(cpus[0], "
             "[tf.config.LogicalDeviceConfiguration()] * {})")


def _split_cpu(count: int) -> None:
    tf = _tf()
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0],
        [tf.config.LogicalDeviceConfiguration() for _ in range(count)])


def _cpu_split_in_effect(count: int) -> bool:
    tf = _tf()
    configs = tf.config.get_logical_device_configuration(tf.config.list_physical_devices("CPU")[0])
    return len(configs or []) == count


def _plan_cpus(planner) -> None:
    count = planner.options.cpus
    if count == 1:
        return planner.add("cpus", Status.APPLIED, detail="one CPU device is TF's default")
    planner.add("cpus", Status.APPLIED, [Step(
        "set_cpu_logical_devices", (count,), _CPU_CODE.format(count), _split_cpu,
        _cpu_split_in_effect, needs=frozenset({"cpus"}))])


def _portable_cpus(value: int, options) -> Portable:
    if value == 1:
        return Portable(("# one CPU device is TF's default",))
    return Portable((_CPU_CODE.format(value),), frozenset({"cpus"}))


# -- device_filters -----------------------------------------------------------

_DEVICE_FILTER = re.compile(r"^(/(job|replica|task|device|cpu|gpu):[^/:]+(:\d+)?)+$", re.I)
_CONNECT = ("tf.config.experimental_connect_to_cluster(resolver, "
            "cluster_device_filters=device_filters)")


def _check_filters(value: Any, reject: Reject) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or not value:
        reject()
    for item in value:
        if not isinstance(item, str) or not _DEVICE_FILTER.match(item):
            reject(f"{item!r} is not a device name such as '/job:ps' or '/job:worker/task:1'")
    return tuple(value)


def _plan_filters(planner) -> None:
    filters = list(planner.options.device_filters)
    if "TF_CONFIG" not in planner.inventory.environ:
        return planner.add("device_filters", Status.NOT_APPLICABLE, detail=(
            "this process is in no cluster (TF_CONFIG is unset); device filters only choose "
            "which tasks' devices a session sees, and a local TF1 session ignores them too"))
    planner.add("device_filters", Status.UNSUPPORTED, detail=(
        "TF2 takes device filters when it connects to a cluster, which configure() does not do: "
        f"set tf.config.experimental.ClusterDeviceFilters for this task to {filters} and pass "
        f"them to {_CONNECT} (ParameterServerStrategy sets such filters itself)"))


def _portable_filters(value: tuple, options) -> Portable:
    return Portable((
        "# TF2 applies device filters when connecting to a cluster (TF_CONFIG names this task)",
        "device_filters = tf.config.experimental.ClusterDeviceFilters()",
        "task = json.loads(os.environ.get('TF_CONFIG', '{}')).get('task')",
        "if task:",
        f"    device_filters.set_device_filters(task['type'], task['index'], {list(value)!r})",
        f"# then: {_CONNECT}"), frozenset({"os", "json"}))


SPECS = (
    OptionSpec(
        "log_placement", Scalar("log_device_placement"), check_bool, "True or False",
        "tf.debugging.set_log_device_placement(True)",
        "both only print text; `tf1compat.placement` / `modern.placement` return it as data",
        BOOL_FLAG, _log_plan, _log_portable,
        table_order=1, plan_order=90, tf1_names=("log_device_placement",)),
    OptionSpec(
        "soft_placement", Scalar("allow_soft_placement"), check_bool, "True or False",
        "tf.config.set_soft_device_placement(True)",
        "on by default in eager, off by default in TF1 graph sessions",
        BOOL_FLAG, _soft_plan, _soft_portable,
        table_order=2, plan_order=80, tf1_names=("allow_soft_placement",)),
    OptionSpec(
        "cpus", MapEntry("device_count", "CPU"), check_int_at_least(1), "an integer >= 1",
        "tf.config.set_logical_device_configuration(cpu, "
        "[tf.config.LogicalDeviceConfiguration()] * n)",
        "how CPU-only machines test multi-device code",
        INT_FLAG, _plan_cpus, _portable_cpus,
        table_order=7, plan_order=50, tf1_names=("device_count",)),
    OptionSpec(
        "intra_op_threads", Scalar("intra_op_parallelism_threads"), check_int_at_least(0),
        "an integer >= 0", "tf.config.threading.set_intra_op_parallelism_threads(n)",
        "0 lets TensorFlow choose", INT_FLAG, _intra_plan, _intra_portable,
        table_order=9, plan_order=60,
        tf1_names=("intra_op_parallelism_threads",)),
    OptionSpec(
        "inter_op_threads", Scalar("inter_op_parallelism_threads"), check_int_at_least(0),
        "an integer >= 0", "tf.config.threading.set_inter_op_parallelism_threads(n)",
        "0 lets TensorFlow choose", INT_FLAG, _inter_plan, _inter_portable,
        table_order=10, plan_order=70,
        tf1_names=("inter_op_parallelism_threads",)),
    OptionSpec(
        "device_filters", RepeatedText("device_filters"), _check_filters,
        "a non-empty sequence of device names such as '/job:ps' or '/job:worker/task:1' "
        "(or one string of them separated by commas)",
        "tf.config.experimental.ClusterDeviceFilters, passed to "
        "tf.config.experimental_connect_to_cluster",
        "only matters in a cluster: a local session ignores them; TF2 takes them per task "
        "when connecting, so `configure` reports them",
        Flag(metavar="DEVICE,DEVICE"), _plan_filters, _portable_filters,
        table_order=14, plan_order=95),
)
