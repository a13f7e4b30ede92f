"""`explain` prints portable TF2 code: the same on every machine, and it runs."""

import collections
import json

import pytest

from isolated import run_cli, run_json

from modern import Inventory, memory_limit_mib
from modern.config import explain
from tf1compat import DeviceError, OptionError
from tf1compat.shared.errors import GpuMemoryUnknownError

OPTIONS = ["--growth", "--memory-fraction", "0.5", "--log-placement", "--visible-gpus", "1,0",
           "--cpus", "2", "--rewrite-options", "constant_folding=off", "--allocator-type", "BFC",
           "--device-filters", "/job:ps", "--intra-op-threads", "2"]


def _explain_json(*extra):
    result = run_cli("explain", *OPTIONS, "--json", *extra, env={"CUDA_VISIBLE_DEVICES": "-1"})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def here_and_simulated():
    return _explain_json(), _explain_json("--simulate-gpus", "2", "--gpu-memory-mib", "8192")


def test_code_is_the_same_with_and_without_simulated_gpus(here_and_simulated):
    here, simulated = here_and_simulated
    assert here["tf2_code"] == simulated["tf2_code"]
    code = here["tf2_code"]
    assert "gpus[0]" not in code and "gpus[1]" not in code and "8192" not in code
    assert "for gpu in gpus:" in code
    assert "modern.memory_limit_mib(gpu, 0.5)" in code


def test_status_is_the_separate_per_machine_part(here_and_simulated):
    here, simulated = here_and_simulated
    status_here = {row["option"]: row["status"] for row in here["options"]}
    status_there = {row["option"]: row["status"] for row in simulated["options"]}
    assert status_here["memory_fraction"] == "not applicable"
    assert status_there["memory_fraction"] == "applied"
    assert status_there["visible_gpus"] == "approximated"  # TF2 keeps physical order
    simulated_calls = "".join(row["code"] for row in simulated["options"])
    assert simulated_calls.count("memory_limit=4096") == 2
    assert here["machine"] == "this machine: 0 GPU(s)"
    assert simulated["machine"] == "2 simulated GPU(s)"


def test_the_code_runs_on_a_machine_without_gpus(here_and_simulated):
    code = here_and_simulated[0]["tf2_code"]
    facts = run_json(code + """
import json
print(json.dumps({"cpus": len(tf.config.list_logical_devices("CPU")),
                  "grappler": tf.config.optimizer.get_experimental_options(),
                  "threads": tf.config.threading.get_intra_op_parallelism_threads(),
                  "visible_gpus": tf.config.get_visible_devices("GPU")}))
""", env={"CUDA_VISIBLE_DEVICES": "-1"})
    assert facts["cpus"] == 2 and facts["threads"] == 2 and facts["visible_gpus"] == []
    assert facts["grappler"]["constant_folding"] is False


def test_text_output_shows_the_portable_code_then_the_status():
    result = run_cli("explain", "--growth", "--simulate-gpus", "2")
    assert result.returncode == 0, result.stderr
    code_part, status_part = result.stdout.split("Status on 2 simulated GPU(s):")
    assert "| for gpu in gpus:" in code_part and "gpus[1]" not in code_part
    assert "set_memory_growth(gpus[1], True)" in status_part


def test_modern_explain_is_portable_and_compiles():
    code = explain(memory_fraction=0.25, virtual_gpus=[[1000]], growth=True, gpus=3)
    compile(code, "<explain>", "exec")
    assert "for gpu in gpus[1:]:" in code  # the first visible GPU has its virtual GPUs
    assert "gpus = gpus[:3]" in code
    assert "os.environ['TF_FORCE_GPU_ALLOW_GROWTH'] = 'true'" in code


Device = collections.namedtuple("Device", "name device_type")


def test_memory_limit_helper_reads_the_gpu_total():
    machine = Inventory.simulated(2, memory_mib=16000)
    assert memory_limit_mib(Device("/physical_device:GPU:1", "GPU"), 0.5, machine) == 8000
    assert memory_limit_mib(0, 0.25, machine) == 4000
    with pytest.raises(DeviceError, match=r"GPU 2.*\[0, 1\]"):
        memory_limit_mib(2, 0.5, machine)
    with pytest.raises(OptionError, match="fraction=1.5"):
        memory_limit_mib(0, 1.5, machine)
    from modern.inventory import GpuInfo

    with pytest.raises(GpuMemoryUnknownError, match="nvidia-ml-py"):
        memory_limit_mib(0, 0.5, Inventory((GpuInfo(0, "gpu", None),)))
