"""The rules of `tf1compat.shared.slurm_layout`: rank order, nodes, ports (no TensorFlow)."""

import pytest

from tf1compat.shared import slurm_layout
from tf1compat.shared.errors import LaunchError


def test_ranks_follow_launchs_task_order():
    assert slurm_layout.layout(2, 1, True, True) == [
        ("chief", 0), ("ps", 0), ("worker", 0), ("worker", 1), ("evaluator", 0)]


def test_slurms_compressed_counts_are_expanded():
    assert slurm_layout.expand_counts("2(x3),1", "X") == [2, 2, 2, 1]
    with pytest.raises(LaunchError, match=r"invalid X: received '2\(3\)'"):
        slurm_layout.expand_counts("2(3)", "X")


def test_ports_are_the_base_plus_the_local_rank_on_each_node():
    tasks = slurm_layout.layout(3, 1, True, False)
    hosts = ["n1", "n1", "n2", "n2", "n2"]  # block distribution, 2 then 3 tasks
    cluster, ports = slurm_layout.step_cluster(tasks, hosts, 21000)
    assert ports == [21000, 21001, 21000, 21001, 21002]
    assert cluster.as_dict() == {"chief": ["n1:21000"], "ps": ["n1:21001"],
                                 "worker": ["n2:21000", "n2:21001", "n2:21002"]}


def test_the_default_port_base_depends_on_the_job_id():
    assert slurm_layout.default_port_base("1") == 20032
    assert slurm_layout.default_port_base("1001") == 20032  # the documented collision
    assert slurm_layout.default_port_base("999") == 20000 + 32 * 999


@pytest.mark.parametrize("text", ["node1", "node[01-04,07],gpu1", "a,b[1-2]-ib", "x[1,3]y"])
def test_host_lists_slurm_writes_are_accepted(text):
    slurm_layout.check_hostlist(text, "L")


@pytest.mark.parametrize("text, problem", [
    ("", "it is empty"), ("n[1-2", "its brackets do not pair"),
    ("n1-2]", "its brackets do not pair"), ("n[[1]]", "its brackets do not pair"),
    ("n[a-b]", "'n[a-b]' has a range that is not N or N-M"),
    ("n1,,n2", "'' is not a host name"), ("n 1", "'n 1' is not a host name"),
])
def test_host_lists_that_do_not_parse_are_named(text, problem):
    with pytest.raises(LaunchError) as raised:
        slurm_layout.check_hostlist(text, "L")
    assert str(raised.value).startswith(f"node list L={text!r} does not parse: {problem}; ")


def test_the_batch_script_asks_for_one_task_each_and_runs_launch_slurm():
    from tf1compat.launch.slurm_batch import batch_script

    text = batch_script(slurm_layout.layout(2, 1, False, False),
                        ["--ps", "1", "--workers", "2", "train.py", "--lr", "0.1"],
                        ["-p", "cpu", "--time=10"], python="/opt/py/bin/python",
                        cwd="/home/me/run dir", pythonpath="")
    assert text.splitlines() == [
        "#!/bin/bash",
        "# tf1compat launch --emit slurm: 3 tasks (1 ps, 2 worker),",
        "# one Slurm task each; submit with: sbatch THIS_FILE",
        "#SBATCH --job-name=tf1compat-launch",
        "#SBATCH --ntasks=3",
        "#SBATCH -p cpu --time=10",
        "set -euo pipefail",
        "cd '/home/me/run dir'",
        "exec /opt/py/bin/python -m tf1compat.cli.main launch --slurm --ps 1 --workers 2 "
        "train.py --lr 0.1"]


def test_the_batch_script_of_a_restarting_run_keeps_its_allocation_through_a_node_failure():
    import subprocess
    import sys

    from isolated import REPO_ROOT, python_env

    env = python_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "launch", "--emit",
                           "slurm", "--workers", "2", "--max-restarts", "2", "train.py"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "#SBATCH --no-kill" in lines
    assert lines[-1].endswith("launch --slurm --workers 2 --max-restarts 2 train.py")


@pytest.mark.slurm
def test_node_lists_expand_as_scontrol_expands_them(slurm_cluster):
    names = slurm_layout.expand_hostlist("node[09-11,20],gpu1", "L", slurm_cluster.client_env())
    assert names == ["node09", "node10", "node11", "node20", "gpu1"]
