"""Multi-device Estimators against TensorFlow 1.15: replicate_model_fn towers, train_distribute.

TF 1.15 runs the scripts on two CPUs (device_count={'CPU': 2}); here they run
under `tf1compat run --device-map 'gpu:*=cpu:*'` (the /gpu:0, /gpu:1 the
scripts ask for become logical CPUs 0 and 1) and after `tf1compat migrate`.
Per-step losses, metrics, predictions and final weights agree within 1e-4,
the checkpoint's variable names and the global step are equal, and a traced
step shows tower 0's ops on CPU:0 and tower 1's on CPU:1.
"""

import json

import pytest

from estimator.reference import SCRIPTS, assert_close, run_migrated
from isolated import run_cli

# One worker runs the module, so its module-scoped TF 1.15 and TF 2.21 trainings run once.
pytestmark = pytest.mark.xdist_group("test_replicate_vs_tf115")

TOLERANCE = 1e-4
TOWERS = "replicate_towers.py"
TWO_CPUS = ("--devices", "/cpu:0,/cpu:1", "--cpus", "2")
DEVICE_MAP = ("--device-map", "gpu:*=cpu:*")


def tf1(script, *args, cwd):
    """The script under TF 1.15: (returncode, stderr, the JSON it wrote or None)."""
    import tf1_reference
    from tf1_reference import recorded

    out = cwd / f"tf1-{script}.json"
    result = recorded.run(tf1_reference.require(), [str(SCRIPTS / script), *args, "--out",
                                                    str(out)],
                          cwd=cwd, env=tf1_reference.environment(), timeout=600)
    return result.returncode, result.stderr, json.loads(out.read_text()) if out.exists() else None


def here(script, *args, cwd, run_flags=DEVICE_MAP):
    """The script under `tf1compat run RUN_FLAGS`: (returncode, stderr, its JSON or None)."""
    out = cwd / f"here-{script}.json"
    result = run_cli("run", *run_flags, str(SCRIPTS / script), *args, "--out", str(out),
                     timeout=600)
    return result.returncode, result.stderr, json.loads(out.read_text()) if out.exists() else None


def succeeded(outcome):
    returncode, stderr, result = outcome
    assert returncode == 0 and result is not None, stderr[-4000:]
    return result


@pytest.fixture(scope="module")
def tf1_towers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tf1_towers")
    return succeeded(tf1(TOWERS, "--model_dir", str(folder / "model"), *TWO_CPUS, cwd=folder))


@pytest.fixture(scope="module")
def tf1_mirrored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tf1_mirrored")
    return succeeded(tf1("mirrored_strategy.py", "--model_dir", str(folder / "model"), "--cpus",
                         "2", cwd=folder))


def assert_same_towers(ours, reference):
    assert len(ours["losses"]) == len(reference["losses"]) == 20
    assert_close(ours["losses"], reference["losses"], TOLERANCE, "per-step losses")
    assert ours["losses"][-1] < ours["losses"][0] / 5  # it learned
    for key, value in reference["metrics"].items():
        assert_close(ours["metrics"][key], value, TOLERANCE, f"metric {key}")
    assert_close(ours["probabilities"], reference["probabilities"], TOLERANCE, "predictions")
    assert_close(ours["hidden_kernel"], reference["hidden_kernel"], TOLERANCE, "hidden/kernel")
    assert ours["variables"] == reference["variables"]
    assert ours["global_step"] == reference["global_step"] == 20
    assert ours["checkpoint"] == reference["checkpoint"] == "model.ckpt-20"
    # one set of variables, named as a single-device model names them: no tower_1/ copies
    names = {name for name, _ in ours["variables"]}
    assert {"hidden/kernel", "hidden/kernel/Adam", "logits/bias", "global_step"} <= names
    assert not any(name.startswith("tower_") for name in names)
    assert ours["placement"] == reference["placement"] == \
        {"tower_0": ["CPU:0"], "tower_1": ["CPU:1"]}


def test_gpu_towers_on_logical_cpus_train_as_under_tf115(tmp_path, tf1_towers):
    ours = succeeded(here(TOWERS, "--model_dir", str(tmp_path / "model"), cwd=tmp_path))
    assert_same_towers(ours, tf1_towers)


def test_after_migrate_the_towers_run_under_plain_python_as_under_tf115(tmp_path, tf1_towers):
    ours = run_migrated(TOWERS, "--model_dir", str(tmp_path / "model"), *TWO_CPUS,
                        cwd=tmp_path)
    assert "tf1compat.estimator.contrib.replicate_model_fn" in \
        (tmp_path / "migrated" / TOWERS).read_text()
    assert_same_towers(ours, tf1_towers)


def test_a_model_fn_without_tower_optimizer_fails_with_tf115s_message(tmp_path):
    args = ("--model_dir", str(tmp_path / "m"), "--plain_optimizer")
    returncode, tf1_stderr, _ = tf1(TOWERS, *args, cwd=tmp_path)
    sentence = ("Please wrap optimizers with TowerOptimizer in order to use replicate_model_fn "
                "with multiple `devices`")
    assert returncode == 1 and f"ValueError: {sentence}" in tf1_stderr, tf1_stderr[-3000:]
    returncode, stderr, _ = here(TOWERS, *args, cwd=tmp_path)
    line = next((line for line in stderr.splitlines() if "EstimatorError:" in line), "")
    assert returncode == 1 and sentence in line, stderr[-3000:]
    assert "tf.contrib.estimator.TowerOptimizer(optimizer)" in line


def test_a_tower_on_a_device_that_does_not_exist_is_named_with_the_devices_there_are(tmp_path):
    args = ("--model_dir", str(tmp_path / "m"), "--devices", "/cpu:0,/cpu:3", "--cpus", "2",
            "--no_soft_placement")
    returncode, tf1_stderr, _ = tf1(TOWERS, *args, cwd=tmp_path)
    assert returncode == 1 and "Cannot assign a device for operation tower_1/" in tf1_stderr
    returncode, stderr, _ = here(TOWERS, *args, cwd=tmp_path, run_flags=())
    line = next((line for line in stderr.splitlines() if "DeviceError:" in line), "")
    assert returncode == 1, stderr[-3000:]
    assert "asks for device '/device:CPU:3', which does not exist here" in line, stderr[-3000:]
    assert "the devices are ['CPU:0', 'CPU:1']" in line and "allow_soft_placement=True" in line
    assert "InvalidArgumentError" not in stderr  # TensorFlow's own traceback is not shown


@pytest.mark.parametrize("devices, run_flags", [
    ("/cpu:0,/cpu:1", ()),                    # no device_count: RunConfig asks for 2 CPUs
    ("/gpu:0,/gpu:1", DEVICE_MAP),            # GPUs remapped to logical CPUs by `run`
], ids=["cpus", "gpus-mapped"])
def test_train_distribute_mirrored_strategy_trains_as_under_tf115(tmp_path, tf1_mirrored,
                                                                  devices, run_flags):
    reference = tf1_mirrored
    ours = succeeded(here("mirrored_strategy.py", "--model_dir", str(tmp_path / "here"),
                          "--devices", devices, cwd=tmp_path, run_flags=run_flags))
    assert ours["replicas"] == reference["replicas"] == 2
    assert len(ours["losses"]) == len(reference["losses"]) == 10
    assert_close(ours["losses"], reference["losses"], TOLERANCE, "per-step losses")
    assert_close(ours["hidden_kernel"], reference["hidden_kernel"], TOLERANCE, "hidden/kernel")
    for key, value in reference["metrics"].items():
        assert_close(ours["metrics"][key], value, TOLERANCE, f"metric {key}")
    assert ours["variables"] == reference["variables"]
    assert ours["global_step"] == reference["global_step"] == 10
