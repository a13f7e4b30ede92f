"""Which tasks `tf1compat launch` serves as TF1 (`tf1compat run`), and that the batch job and
the TFJob it writes pass that choice on to the launch inside them."""

import sys

import pytest

from isolated import run_cli
from launch_helpers import write_script
from tf1compat.cli import launch
from tf1compat.cli.main import build_parser
from tf1compat.shared.errors import LaunchError


def _args(*argv):
    return build_parser().parse_args(["launch", *argv])


@pytest.mark.parametrize("options, served", [
    ([], False),                          # a TF2 script: plain python
    (["--tf1-flags"], True),              # TF1's cluster flags: a TF1 program
    (["--tf1-flags", "--python"], False),
    (["--tf1"], True),                    # a TF1 Estimator reading TF_CONFIG
    (["--run-args=--numpy 1"], True),
])
def test_a_py_script_runs_under_run_when_it_is_a_tf1_program(tmp_path, options, served):
    script = write_script(tmp_path, "train.py", "print('hi')\n")
    command = launch.command_for(_args(*options, str(script), "--epochs", "3"))
    run_part = [sys.executable, "-u", "-m", "tf1compat.cli.main", "run"]
    if served:
        extra = ["--numpy", "1"] if "--run-args=--numpy 1" in options else []
        assert command == [*run_part, *extra, str(script), "--epochs", "3"]
    else:
        assert command == [sys.executable, "-u", str(script), "--epochs", "3"]


def test_serving_a_module_or_a_program_as_tf1_is_refused_naming_the_options(tmp_path):
    with pytest.raises(LaunchError, match="--tf1/--run-args serve a .py SCRIPT"):
        launch.command_for(_args("--tf1", "-m", "examples.distributed_tf1"))
    with pytest.raises(LaunchError, match="received 'hostname'"):
        launch.command_for(_args("--run-args=--numpy 1", "hostname"))
    with pytest.raises(LaunchError, match="invalid --run-args"):
        launch.command_for(_args("--run-args=--device-map 'gpu", str(
            write_script(tmp_path, "t.py", "x = 1\n"))))


def test_the_emitted_slurm_job_and_tfjob_keep_the_serving_choice(tmp_path):
    script = write_script(tmp_path, "train.py", "print('hi')\n")
    batch = run_cli("launch", "--emit", "slurm", "--ps", "1", "--workers", "1", "--tf1-flags",
                    "--run-args=--numpy 1", str(script), timeout=60)
    assert batch.returncode == 0, batch.stderr[-2000:]
    assert "--tf1-flags --run-args '--numpy 1'" in batch.stdout, batch.stdout
    tfjob = run_cli("launch", "--emit", "tfjob", "--image", "img", "--workers", "1", "--tf1",
                    str(script), timeout=60)
    assert tfjob.returncode == 0, tfjob.stderr[-2000:]
    assert "--tf1" in tfjob.stdout and "--from-tf-config" in tfjob.stdout
