"""The tf1compat command line: doctor and explain, as a user runs them."""

import json

import pytest

from isolated import run_cli


def test_help_for_every_command():
    for args in ([], ["doctor"], ["explain"]):
        result = run_cli(*args, "--help", timeout=60)
        assert result.returncode == 0, result.stderr
        assert "usage: tf1compat" in result.stdout


@pytest.fixture(scope="module")
def explain_text():
    # a machine without GPUs, also where the tests run on one
    result = run_cli("explain", "--growth", "--memory-fraction", "0.5", "--log-placement",
                     env={"CUDA_VISIBLE_DEVICES": "-1"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_explain_shows_tf1_text_and_tf2_code_side_by_side(explain_text):
    lines = explain_text.splitlines()
    assert lines[0].startswith("TF1: ConfigProto") and "| TF2: code" in lines[0]
    assert "allow_growth: true" in explain_text
    assert "per_process_gpu_memory_fraction: 0.5" in explain_text
    assert "log_device_placement: true" in explain_text
    assert "tf.debugging.set_log_device_placement(True)" in explain_text


def test_explain_reports_status_of_each_option_on_this_machine(explain_text):
    assert "growth = True  [not applicable]" in explain_text
    assert "memory_fraction = 0.5  [not applicable]" in explain_text
    assert "log_placement = True  [applied]" in explain_text
    assert "Traceback" not in explain_text
    # the GPU options mean nothing here: the way to see their TF2 code is named
    assert "add --simulate-gpus N" in explain_text.splitlines()[-1]


def test_explain_on_a_simulated_machine_has_no_hint():
    result = run_cli("explain", "--growth", "--simulate-gpus", "1")
    assert result.returncode == 0, result.stderr
    assert "growth = True  [applied]" in result.stdout
    assert "--simulate-gpus" not in result.stdout


def test_explain_json_for_a_simulated_machine():
    result = run_cli("explain", "--growth", "--memory-fraction", "0.5", "--simulate-gpus", "2",
                     "--gpu-memory-mib", "10000", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    statuses = {row["option"]: row["status"] for row in report["options"]}
    assert statuses == {"memory_fraction": "applied", "growth": "approximated"}
    # the status part has this machine's calls written out; the code is portable
    assert "".join(row["code"] for row in report["options"]).count("memory_limit=5000") == 2
    assert "memory_limit=5000" not in report["tf2_code"]
    compile(report["tf2_code"], "<tf2>", "exec")
    assert "allow_growth: true" in report["config_proto"]


def test_explain_reads_a_pbtxt_file(tmp_path):
    config = tmp_path / "session.pbtxt"
    config.write_text('device_count { key: "CPU" value: 2 }\nallow_soft_placement: true\n')
    result = run_cli("explain", "--config", str(config), "--intra-op-threads", "3", "--json")
    assert result.returncode == 0, result.stderr
    rows = {row["option"]: row for row in json.loads(result.stdout)["options"]}
    assert set(rows) == {"cpus", "soft_placement", "intra_op_threads"}
    assert rows["cpus"]["value"] == 2


@pytest.mark.parametrize("args,expected", [
    (["explain", "--memory-fraction", "1.5"], "memory_fraction=1.5"),
    (["explain", "--intra-op-threads", "-2"], "intra_op_threads=-2"),
    (["explain", "--cpus", "two"], "cpus='two'"),
    (["explain", "--visible-gpus", "0,0"], "visible_gpus='0,0'"),
    (["explain", "--config", "/no/such/file.pbtxt"], "/no/such/file.pbtxt"),
    (["explain", "--virtual-gpus", "0"], "virtual_gpus"),
])
def test_bad_input_is_one_line_and_non_zero(args, expected, tmp_path):
    result = run_cli(*args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    error_lines = [line for line in result.stderr.splitlines() if line.startswith("tf1compat")]
    assert len(error_lines) == 1 and expected in error_lines[0], result.stderr


def test_unparsable_config_file_is_reported(tmp_path):
    config = tmp_path / "bad.pbtxt"
    config.write_text("gpu_options { allow_growth: perhaps }\n")
    result = run_cli("explain", "--config", str(config))
    assert result.returncode == 2
    assert "does not parse" in result.stderr and "Traceback" not in result.stderr


def test_doctor_json_reports_versions_devices_and_environment():
    result = run_cli("doctor", "--json", env={"TF_FORCE_GPU_ALLOW_GROWTH": "true",
                                              "CUDA_VISIBLE_DEVICES": ""})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["packages"]["tensorflow"].startswith("2.21")
    assert report["packages"]["keras"].startswith("3.")
    assert {"kind": "physical", "name": "/physical_device:CPU:0", "type": "CPU",
            "detail": ""} in report["devices"]["physical"]
    assert any(d["type"] == "CPU" for d in report["devices"]["logical"])
    assert report["environment"]["TF_FORCE_GPU_ALLOW_GROWTH"] == "true"
    assert report["environment"]["CUDA_VISIBLE_DEVICES"] == ""
    assert "is_cuda_build" in report["build"]
    assert "hdfs" in report["features"]


def test_doctor_text_report_has_every_section():
    result = run_cli("doctor")
    assert result.returncode == 0, result.stderr
    for section in ("Packages", "TensorFlow build", "Devices", "Environment", "Optional parts"):
        assert f"\n{section}\n" in result.stdout
    assert "\noneDNN optimisations" in result.stdout
    assert "/physical_device:CPU:0" in result.stdout
    assert "WARNING: All log messages" not in result.stderr


@pytest.mark.parametrize("value, enabled", [("1", True), ("0", False)])
def test_doctor_says_whether_onednn_is_on_and_names_the_variable_that_forced_it(value, enabled):
    result = run_cli("doctor", "--json", env={"TF_ENABLE_ONEDNN_OPTS": value})
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)["onednn"]
    assert state["enabled"] is enabled
    assert state["reason"] == f"TF_ENABLE_ONEDNN_OPTS={value}"


def test_onednn_default_reason_names_the_cpu_features_that_turn_it_on():
    pytest.importorskip("tensorflow")
    from tf1compat.cli import onednn

    on = onednn.status({}, frozenset({"avx2", "amx_tile", "avx512_vnni"}))
    assert on["reason"] == "default on this CPU: it has amx_tile, avx512_vnni"
    assert on["cpu_features"] == ["amx_tile", "avx512_vnni"]
    assert onednn.status({}, frozenset({"avx2"}))["cpu_features"] == []
