"""`tf1compat launch --slurm`: bad input is one error line naming it (no TensorFlow).

The first cases need no Slurm at all; the allocation that is too small is a real one.
"""

import socket

import pytest

from isolated import run_cli
from launch_helpers import finish, kill_group, write_script
from slurm_helpers import launch_env, salloc_launch, wait_until_empty


NOT_IN_AN_ALLOCATION = {"SLURM_JOB_ID": "", "SLURM_JOBID": ""}


def _error_line(result):
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("args, env, expected", [
    (["--slurm", "--workers", "2"], NOT_IN_AN_ALLOCATION,
     "tf1compat: error: --slurm outside a Slurm allocation (SLURM_JOB_ID is not set): run it "
     "inside salloc or sbatch, or pass --slurm-args=\"...\" for srun to ask for one (2 tasks)"),
    (["--slurm", "--ps", "1", "--workers", "2"],
     {"SLURM_JOB_ID": "7", "SLURM_JOB_NODELIST": "node[01-03"},
     "tf1compat: error: node list SLURM_JOB_NODELIST='node[01-03' does not parse: its "
     "brackets do not pair; accepted: names separated by commas, each with optional "
     "[ranges], e.g. node[01-04,07],gpu1"),
    (["--slurm", "--workers", "2"], {"SLURM_JOB_ID": "7", "SLURM_JOB_NODELIST": "node[1-x]"},
     "tf1compat: error: node list SLURM_JOB_NODELIST='node[1-x]' does not parse: 'node[1-x]' "
     "has a range that is not N or N-M; accepted: names separated by commas, each with "
     "optional [ranges], e.g. node[01-04,07],gpu1"),
    (["--slurm", "--ports", "2222,2223", "--workers", "2"], {},
     "tf1compat: error: --ports cannot go with --slurm or --emit slurm: Slurm gives the hosts "
     "and launch the ports (--port-base)"),
    (["--slurm", "--slurm-args=--nodes='2", "--workers", "2"], {},
     "tf1compat: error: invalid --slurm-args: received \"--nodes='2\" (No closing quotation); "
     "accepted: srun options in one shell-quoted string"),
    (["--slurm", "--port-base", "80", "--workers", "2"], {},
     "tf1compat: error: invalid --port-base: received 80; accepted: a port from 1024 to 65535"),
    (["--slurm", "--max-restarts=-1", "--workers", "2"], {},
     "tf1compat: error: invalid --max-restarts: received -1; accepted: 0 or more"),
    (["--port-base", "30000", "--workers", "2"], {},
     "tf1compat: error: --port-base needs --slurm or --emit slurm"),
])
def test_bad_input_is_one_line_naming_it(args, env, expected, tmp_path):
    script = write_script(tmp_path, "noop.py", "pass\n")
    result = run_cli("launch", *args, str(script), env=env, timeout=60)
    assert _error_line(result) == expected


@pytest.mark.slurm
def test_more_tasks_than_the_allocation_has_is_named(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "noop.py", "pass\n")
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(slurm_cluster, 2, "--slurm", "--chief", "--ps", "1",
                                   "--workers", "2", str(script), env=env), []
    try:
        status = finish(process, 60, lines)
        errors = [line for line in lines if line.startswith("tf1compat: error")]
        assert status == 2 and len(errors) == 1, "\n".join(lines)
        assert errors[0].startswith(
            "tf1compat: error: more tasks than the allocation has: the layout needs 4 tasks "
            "(1 chief, 1 ps, 2 worker), job ")
        assert errors[0].endswith(
            " has room for 2 (SLURM_NTASKS=2); ask salloc/sbatch for --ntasks=4, or pass "
            "--slurm-args=--overcommit")
        assert not any("Traceback" in line for line in lines)
        assert wait_until_empty(slurm_cluster.queue, 10) == []
    finally:
        kill_group(process)



@pytest.mark.slurm
def test_a_taken_port_is_named_with_its_node_and_task(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "sleep.py", "import time\ntime.sleep(300)\n")
    env = launch_env(slurm_cluster)
    with socket.socket() as holder:  # what another job on the node would hold
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        process, lines = salloc_launch(slurm_cluster, 3, "--slurm", "--ps", "1", "--workers",
                                       "2", "--grace", "2", "--port-base", str(taken - 1),
                                       str(script), env=env), []
        try:
            status = finish(process, 60, lines)
        finally:
            kill_group(process)
    node = slurm_cluster.node
    errors = [line for line in lines if line.startswith("tf1compat: error")]
    assert status == 1 and errors == [
        f"tf1compat: error: task worker:0 (rank 1 on node {node}) cannot start: port {taken} "
        f"on node {node} (worker:0, rank 1) is already in use (another job on this node?); "
        "pass --port-base with a free range (exit status 1)"], "\n".join(lines)
    assert wait_until_empty(slurm_cluster.queue, 10) == []
