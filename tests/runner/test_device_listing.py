"""Under `--device-map`, the script's device listings show the GPUs of the map.

A multi-GPU script counts its GPUs (device_lib, tf.test, tf.config) and builds
one tower per GPU; under `run --device-map 'gpu:*=cpu:*' --cpus 2` it finds two
GPUs, named as TF1 names them, and its towers run on CPU:0 and CPU:1. TF 1.15
(no GPU) builds the same towers when told to pin them to two CPU devices: the
losses, weights and tower placement are the same.
"""

import json
import os
import textwrap
from pathlib import Path

import pytest

import tf1_reference
from isolated import run_cli
from tf1_reference import recorded

SCRIPTS = Path(__file__).resolve().parent / "scripts"
TOWERS = SCRIPTS / "towers_per_gpu.py"


def results(stdout):
    merged = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            merged.update(json.loads(line[len("RESULT "):]))
    return merged


def tf115(args, cwd):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    result = recorded.run(str(tf1_reference.require()), [str(TOWERS), *args], cwd=cwd, env=env,
                          timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return results(result.stdout)


def close(ours, theirs, tolerance=1e-5):
    assert len(ours) == len(theirs)
    return all(abs(a - b) <= tolerance * max(1.0, abs(b)) for a, b in zip(ours, theirs))


# Towers and their placement: CI runs this again with oneDNN off (marker `rewrites`).
@pytest.mark.rewrites
def test_a_tower_per_listed_gpu_runs_on_the_mapped_cpus_as_tf115_runs_them_on_cpus(tmp_path):
    expected = tf115(["--num_gpus", "2", "--tower_device", "cpu", "--cpus", "2"], tmp_path)
    report = tmp_path / "report.json"
    result = run_cli("run", "--device-map", "gpu:*=cpu:*", "--cpus", "2", "--report-json",
                     str(report), str(TOWERS))
    assert result.returncode == 0, result.stderr[-3000:]
    ours = results(result.stdout)
    # TF 1.15 on this machine lists no GPU: the script was told the count there
    assert expected["gpus"]["names"] == [] and expected["towers"] == 2
    assert ours["gpus"] == {
        "names": ["/device:GPU:0", "/device:GPU:1"],
        "mapped": [f"mapped to /device:CPU:{i} by tf1compat run --device-map gpu:*=cpu:*"
                   for i in range(2)],
        "is_gpu_available": True, "gpu_device_name": "/device:GPU:0", "physical": 2}
    assert ours["towers"] == 2
    assert ours["placement"] == expected["placement"] == {"tower_0": ["CPU:0"],
                                                          "tower_1": ["CPU:1"]}
    assert close(ours["losses"], expected["losses"]) and close(ours["weights"],
                                                               expected["weights"])
    assert ours["losses"][-1] < ours["losses"][0] / 5  # it trained
    assert ours["variables"] == expected["variables"]
    data = json.loads(report.read_text())
    assert {(r["from"], r["to"]) for r in data["device_remaps"]} == {("GPU:0", "CPU:0"),
                                                                     ("GPU:1", "CPU:1")}
    assert data["sessions"][0]["options"] == {"cpus": 2}


LISTINGS = """
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import tensorflow as tf
from tensorflow.python.client import device_lib
import probe_lib

def attempt(fn):
    try:
        return fn()
    except Exception as error:  # noqa: BLE001 - the error is the result
        return "%s: %s" % (type(error).__name__, error)

out = {"device_lib": [[d.name, d.device_type, d.physical_device_desc]
                      for d in device_lib.list_local_devices()],
       "library_device_lib": probe_lib.gpu_names(),
       "tf.test": [tf.test.is_gpu_available(), tf.test.is_gpu_available(True, (7, 0)),
                   tf.test.gpu_device_name()],
       "cuda_as_tensorflow_says": tf.test.is_built_with_cuda() == probe_lib.built_with_cuda()}
gpus = tf.config.experimental.list_physical_devices("GPU")
out["physical"] = [d.name for d in gpus]
out["all_physical"] = [d.device_type for d in tf.config.list_physical_devices()]
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
out["growth"] = [tf.config.experimental.get_memory_growth(gpu) for gpu in gpus]
if gpus:
    tf.config.experimental.set_virtual_device_configuration(
        gpus[0], [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)])
    out["limit"] = len(tf.config.experimental.get_virtual_device_configuration(gpus[0]))
    out["split"] = attempt(lambda: tf.config.set_logical_device_configuration(
        gpus[1], [tf.config.LogicalDeviceConfiguration()] * 2))
    tf.config.experimental.set_visible_devices(gpus[:2], "GPU")
out["visible"] = [d.name for d in tf.config.experimental.get_visible_devices("GPU")]
out["logical"] = [d.name for d in tf.config.experimental.list_logical_devices("GPU")]
out["tfe"] = [tf.contrib.eager.num_gpus(),
              [name.rsplit("/", 1)[-1] for name in tf.contrib.eager.list_devices()]]
out["library_logical"] = probe_lib.logical_gpus()
print("RESULT " + json.dumps(out))
"""

LIBRARY = """
import tensorflow as tf
from tensorflow.python.client import device_lib

def gpu_names():
    return [d.name for d in device_lib.list_local_devices() if d.device_type == "GPU"]

def built_with_cuda():
    return tf.test.is_built_with_cuda()

def logical_gpus():
    return [d.name for d in tf.config.list_logical_devices("GPU")]
"""


def test_the_script_lists_the_mapped_gpus_libraries_do_not_and_without_a_map_nothing_changes(
        tmp_path):
    script = tmp_path / "listings.py"
    script.write_text(textwrap.dedent(LISTINGS))
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "probe_lib.py").write_text(textwrap.dedent(LIBRARY))
    report = tmp_path / "report.json"
    common = ["--library-root", str(tmp_path / "lib"), "--report-json", str(report)]
    mapped = run_cli("run", "--device-map", "gpu:*=cpu:*,gpu:3=cpu:0", "--cpus", "2", *common,
                     str(script))
    assert mapped.returncode == 0, mapped.stderr[-3000:]
    out = results(mapped.stdout)
    rules = "gpu:3=cpu:0,gpu:*=cpu:*"
    assert out["device_lib"] == [
        ["/device:CPU:0", "CPU", ""], ["/device:CPU:1", "CPU", ""],
        *([f"/device:GPU:{gpu}", "GPU",
           f"device: {gpu}, name: mapped to /device:CPU:{cpu} by tf1compat run --device-map "
           f"{rules}"] for gpu, cpu in ((0, 0), (1, 1), (3, 0)))]
    assert out["tf.test"] == [True, True, "/device:GPU:0"]
    assert out["cuda_as_tensorflow_says"] is True
    assert out["physical"] == [f"/physical_device:GPU:{i}" for i in (0, 1, 3)]
    assert out["all_physical"] == ["CPU", "GPU", "GPU", "GPU"]
    assert out["growth"] == [True, True, True] and out["limit"] == 1
    assert out["split"].startswith("MappedDeviceError: set_logical_device_configuration: "
                                   "/physical_device:GPU:1 runs on CPU:1") and \
        "cannot be split into 2 logical GPUs" in out["split"], out["split"]
    assert out["visible"] == ["/physical_device:GPU:0", "/physical_device:GPU:1"]
    assert out["logical"] == ["/device:GPU:0", "/device:GPU:1"]
    assert out["tfe"] == [2, ["device:CPU:0", "device:GPU:0", "device:GPU:1"]]
    # a library asking TensorFlow gets the machine's devices: no GPU here
    assert out["library_device_lib"] == [] and out["library_logical"] == []
    symbols = json.loads(report.read_text())["symbols"]
    assert symbols["tf.test.is_gpu_available"]["status"] == "replaced"
    assert symbols["tf.config.experimental.set_memory_growth"]["status"] == "replaced"

    plain = run_cli("run", *common, str(script))
    assert plain.returncode == 0, plain.stderr[-3000:]
    out = results(plain.stdout)
    assert out["device_lib"] == [["/device:CPU:0", "CPU", ""]]
    assert out["tf.test"] == [False, False, ""]
    assert out["physical"] == out["visible"] == out["logical"] == []
    assert out["tfe"] == [0, ["device:CPU:0"]]
    assert json.loads(report.read_text())["symbols"]["tf.test.is_gpu_available"]["status"] == \
        "native"
