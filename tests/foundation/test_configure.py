"""modern.configure on a real TF runtime; each scenario in its own process."""

import pytest

from isolated import last_json, run_json, run_script

CONFIGURE_SCENARIO = """
import json
import modern
import tensorflow as tf
from modern import placement
from tf1compat import DeviceError, RuntimeAlreadyInitializedError

facts = {}
report = modern.configure(cpus=3, intra_op_threads=2, inter_op_threads=1, jit="on_1",
                          soft_placement=False, log_placement=False, growth=True,
                          visible_gpus="0")
facts["report"] = report.to_dict()
facts["logical_cpus"] = [d.name for d in tf.config.list_logical_devices("CPU")]
facts["threads"] = [tf.config.threading.get_intra_op_parallelism_threads(),
                    tf.config.threading.get_inter_op_parallelism_threads()]
facts["jit"] = tf.config.optimizer.get_jit()
facts["soft"] = tf.config.get_soft_device_placement()

@tf.function
def towers(x):
    parts = []
    for index in range(3):
        with tf.device(f"/cpu:{index}"):
            parts.append(tf.matmul(x, x, name=f"tower_{index}"))
    with tf.device("/cpu:0"):
        return tf.add_n(parts, name="total")

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
value, where = placement.run(towers, x)
facts["value"] = value.numpy().tolist()
facts["tower_devices"] = [where.device_of(f"tower_{i}") for i in range(3)]

def on_missing_gpu():
    with tf.device("/gpu:0"):
        return tf.multiply(x, 2.0, name="on_gpu")
try:
    placement.run(on_missing_gpu)
except DeviceError as error:
    facts["hard_placement_error"] = str(error)

again = modern.configure(cpus=3, intra_op_threads=2, soft_placement=True)
facts["again"] = again.to_dict()
facts["soft_after"] = tf.config.get_soft_device_placement()
_, where = placement.run(on_missing_gpu)
facts["soft_device"] = where.device_of("on_gpu")
try:
    modern.configure(cpus=2, intra_op_threads=4)
except RuntimeAlreadyInitializedError as error:
    facts["started_error"] = str(error)
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def facts():
    return run_json(CONFIGURE_SCENARIO)


def _row(rows, keyword):
    return next(row for row in rows if row["option"] == keyword)


def test_cpus_gives_that_many_logical_devices(facts):
    assert len(facts["logical_cpus"]) == 3
    assert _row(facts["report"], "cpus")["status"] == "applied"


def test_ops_run_where_asked_on_logical_cpus(facts):
    assert facts["tower_devices"] == ["CPU:0", "CPU:1", "CPU:2"]
    assert facts["value"] == [[21.0, 30.0], [45.0, 66.0]]


def test_threads_jit_and_placement_flags_reach_tensorflow(facts):
    assert facts["threads"] == [2, 1]
    assert facts["jit"] == "autoclustering"
    assert facts["soft"] is False


def test_gpu_options_are_not_applicable_without_gpu(facts):
    for keyword in ("growth", "visible_gpus"):
        row = _row(facts["report"], keyword)
        assert row["status"] == "not applicable"
        assert "no GPU" in row["detail"]


def test_report_rows_carry_the_code_that_ran(facts):
    assert _row(facts["report"], "intra_op_threads")["code"] == \
        "tf.config.threading.set_intra_op_parallelism_threads(2)"


def test_hard_placement_error_lists_devices(facts):
    message = facts["hard_placement_error"]
    assert "GPU:0" in message and "['CPU:0', 'CPU:1', 'CPU:2']" in message
    assert "soft_placement=True" in message


def test_same_values_again_are_a_no_op_and_soft_placement_still_changes(facts):
    again = {row["option"]: row for row in facts["again"]}
    assert "already in effect" in again["cpus"]["detail"]
    assert "already in effect" in again["intra_op_threads"]["detail"]
    assert again["soft_placement"]["status"] == "applied"
    assert facts["soft_after"] is True
    assert facts["soft_device"].startswith("CPU:")


def test_changing_device_options_after_start_names_the_line(facts):
    message = facts["started_error"]
    assert "cpus=2" in message and "intra_op_threads=4" in message
    assert "started at <string>:" in message
    assert "before the first TensorFlow op" in message


@pytest.mark.parametrize("order", ["modern_first", "tensorflow_first"])
def test_already_started_error_names_the_first_op(order, tmp_path):
    imports = "import modern\nimport tensorflow as tf" if order == "modern_first" else \
        "import tensorflow as tf\nimport modern"
    script = tmp_path / "train.py"
    script.write_text(imports + """
import json
from tf1compat import RuntimeAlreadyInitializedError
x = tf.constant([1, 2, 3])  # the line that starts the runtime
try:
    modern.configure(cpus=2)
    print(json.dumps({"error": None}))
except RuntimeAlreadyInitializedError as error:
    print(json.dumps({"error": str(error)}))
""")
    facts = last_json(run_script(script))
    assert facts["error"] is not None
    assert "train.py:5" in facts["error"]
    assert "tf.constant([1, 2, 3])" in facts["error"]


def test_configure_takes_a_config_proto_and_session_matches():
    facts = run_json("""
import json
import modern
import tensorflow as tf
import tf1compat
proto = tf.compat.v1.ConfigProto(device_count={"CPU": 2}, allow_soft_placement=True)
report = modern.configure(proto)
modern_devices = [d.name for d in tf.config.list_logical_devices("CPU")]
with tf1compat.session(proto) as sess:
    session_devices = [d.name for d in sess.list_devices()]
print(json.dumps({"modern": modern_devices, "session": session_devices,
                  "rows": [r["option"] for r in report.to_dict()]}))
""")
    assert len(facts["modern"]) == len(facts["session"]) == 2
    assert facts["rows"] == ["cpus", "soft_placement"]


def test_importing_the_packages_does_not_import_tensorflow():
    facts = run_json("""
import json, sys
import tf1compat, modern
import tf1compat.shared.options, tf1compat.placement, modern.planning, modern.config
from tf1compat import SessionOptions
SessionOptions(growth=True, cpus=2)
print(json.dumps({"tensorflow": "tensorflow" in sys.modules}))
""")
    assert facts["tensorflow"] is False
