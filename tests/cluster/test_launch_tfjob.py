"""`tf1compat launch --emit tfjob`: the Kubeflow TFJob manifest, checked by simulation.

No Kubernetes here: `tfjob_operator` builds from the manifest the TF_CONFIG the training
operator gives each replica (its documented format, evaluator included), maps the service
names to local ports, runs every replica's container command and ends the job as the
operator does. A TF1 between-graph script (1 ps + 2 workers, flag-style, through `tf1compat
run`) must give the numbers of the local `launch` run; every process must end.
"""

import json
import socket

import numpy as np
import pytest

from isolated import run_cli
from launch_helpers import alive, finish, kill_group, kill_tasks, start, task_pids, \
    wait_gone, write_script
from launch_scripts import TURNS, turns_results
from cluster.tfjob_operator import delete, documents, operator_tf_configs, map_to_local, \
    run_to_the_end, start_replicas

pytestmark = [pytest.mark.cluster]

LAYOUT = ("--ps", "1", "--workers", "2", "--tf1-flags", "--grace", "5")
IMAGE = "registry.example.com/train:1"


_GIVEN: set[int] = set()  # ports handed out here: the OS may offer a closed one again


def _free_port() -> int:
    """A free local port not handed out before in this process (two replicas of one job
    given the same port would be refused as duplicate addresses)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port


def _emit(*args):
    result = run_cli("launch", "--emit", "tfjob", *args, timeout=60)
    assert result.returncode == 0, result.stderr
    return documents(result.stdout)


def _simulate(tfjob, tmp_path, timeout=150):
    tf_configs = map_to_local(operator_tf_configs(tfjob), _free_port)
    logs = tmp_path / "pods"
    logs.mkdir()
    replicas = start_replicas(tfjob, tf_configs, logs)
    try:
        outcome = run_to_the_end(tfjob, replicas, timeout)
    finally:
        delete(replicas, grace=0)
    lines = [line for replica in replicas for line in replica.lines()]
    return outcome, replicas, lines, tf_configs


ECHO = """
    import json, os, sys, time
    print(json.dumps({"task": os.environ["TF1COMPAT_TASK"], "argv": sys.argv[1:],
                      "tf_config": json.loads(os.environ["TF_CONFIG"]),
                      "bind": os.environ.get("TF1COMPAT_BIND_HOST")}), flush=True)
    task = os.environ["TF1COMPAT_TASK"]
    here = os.path.dirname(os.path.abspath(__file__))
    open(os.path.join(here, task.replace(":", "-") + ".printed"), "w").close()
    if task.startswith("ps:"):
        time.sleep(600)  # a ps serves until its pod is deleted
    if task.startswith("chief:"):  # the job ends with the chief: the others print first
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(
                [n for n in os.listdir(here) if n.endswith(".printed")]) < 4:
            time.sleep(0.05)
"""


def test_the_manifest_names_every_replica_type_its_command_and_resources(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    tfjob, policy = _emit("--image", IMAGE, "--name", "mnist", "--namespace", "team-a",
                          "--chief", "--ps", "1", "--workers", "2", "--evaluator",
                          "--tf1-flags", "--max-restarts", "3", "--cpus-per-task", "2",
                          "--memory-per-task", "4Gi", "--gpus-per-task", "1", str(script),
                          "--lr", "0.1")
    assert (tfjob["apiVersion"], tfjob["kind"]) == ("kubeflow.org/v1", "TFJob")
    assert tfjob["metadata"]["name"] == "mnist" and tfjob["metadata"]["namespace"] == "team-a"
    specs = tfjob["spec"]["tfReplicaSpecs"]
    assert {rtype: spec["replicas"] for rtype, spec in specs.items()} == \
        {"Chief": 1, "PS": 1, "Worker": 2, "Evaluator": 1}
    assert tfjob["spec"]["runPolicy"] == {"cleanPodPolicy": "Running", "backoffLimit": 3}
    assert "successPolicy" not in tfjob["spec"]  # with a chief: the chief ends the job
    for rtype, spec in specs.items():
        assert spec["restartPolicy"] == "OnFailure"
        (container,) = spec["template"]["spec"]["containers"]
        assert container["name"] == "tensorflow" and container["image"] == IMAGE
        assert container["ports"] == [{"name": "tfjob-port", "containerPort": 2222}]
        assert container["command"] == ["tf1compat", "launch", "--from-tf-config", "--host",
                                        "$(POD_IP)", "--tf1-flags", str(script), "--lr", "0.1"]
        limits = container["resources"]["limits"]
        assert container["resources"]["requests"] == {"cpu": "2", "memory": "4Gi"}
        assert limits.get("nvidia.com/gpu") == (None if rtype == "PS" else 1)
    assert policy["kind"] == "NetworkPolicy"
    assert policy["spec"]["ingress"] == [{
        "from": [{"podSelector": {"matchLabels": {"training.kubeflow.org/job-name": "mnist"}}}],
        "ports": [{"protocol": "TCP", "port": 2222}]}]
    # Without --max-restarts and without a chief: Never, and every worker ends the job.
    (plain, _) = _emit("--image", IMAGE, "--workers", "2", str(script))
    assert plain["spec"]["successPolicy"] == "AllWorkers"
    assert plain["spec"]["runPolicy"]["backoffLimit"] == 0
    assert plain["spec"]["tfReplicaSpecs"]["Worker"]["restartPolicy"] == "Never"


def test_each_replica_gets_the_operators_tf_config_and_tf1_flags(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    tfjob, _ = _emit("--image", IMAGE, "--chief", "--ps", "1", "--workers", "1", "--evaluator",
                     "--tf1-flags", "--grace", "2", str(script), "--lr", "0.1")
    outcome, replicas, lines, tf_configs = _simulate(tfjob, tmp_path, timeout=60)
    assert outcome == "Succeeded", "\n".join(lines)
    seen = {}
    for line in lines:
        prefix, _, payload = line.partition("] ")
        if prefix.startswith("[") and payload.startswith("{"):
            seen[prefix[1:]] = json.loads(payload)
    assert sorted(seen) == ["chief:0", "evaluator:0", "ps:0", "worker:0"], "\n".join(lines)
    cluster = tf_configs[("chief", 0)]["cluster"]
    assert sorted(cluster) == ["chief", "evaluator", "ps", "worker"]  # the operator's format
    for name, document in seen.items():
        job, index = name.split(":")
        assert document["tf_config"]["cluster"] == cluster
        assert document["tf_config"]["task"] == {"type": job, "index": int(index)}
        assert document["bind"] == "127.0.0.1"  # the pod's IP, from $(POD_IP)
        flags = [f"--job_name={job}", f"--task_index={index}"] + \
            [f"--{j}_hosts={','.join(cluster[j])}" for j in ("chief", "ps", "worker", "evaluator")]
        assert document["argv"] == ["--lr", "0.1", *flags]
    pids = [replica.process.pid for replica in replicas] + list(task_pids(lines).values())
    assert len(pids) == 8 and wait_gone(pids, 5) == []


def test_between_graph_training_as_a_tfjob_gives_the_local_runs_numbers(tmp_path):
    script = str(write_script(tmp_path, "turns.py", TURNS))
    program = ("-m", "tf1compat.cli.main", "run", "--no-report", script)
    tfjob, _ = _emit("--image", IMAGE, *LAYOUT, *program)
    outcome, replicas, lines, _ = _simulate(tfjob, tmp_path)
    assert outcome == "Succeeded", "\n".join(lines[-60:])
    pids = [replica.process.pid for replica in replicas] + list(task_pids(lines).values())
    assert len(pids) == 6 and not any(alive(pid) for pid in pids)
    as_tfjob = turns_results(lines)
    local_lines = []
    process = start(*LAYOUT, *program)
    try:
        assert finish(process, 150, local_lines) == 0, "\n".join(local_lines[-60:])
    finally:
        kill_group(process)
        kill_tasks(local_lines)
    local = turns_results(local_lines)
    assert sorted(local) == sorted(as_tfjob) == ["worker:0", "worker:1"], "\n".join(lines[-40:])
    for worker in local:
        expected, got = local[worker], as_tfjob[worker]
        np.testing.assert_allclose(got["weights"], expected["weights"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose([got["bias"], got["loss"]],
                                   [expected["bias"], expected["loss"]], rtol=1e-5, atol=1e-6)
        assert got["loss"] < 2.0  # it trained (the loss at zero weights is above 5)


@pytest.mark.parametrize("args, expected", [
    (["--emit", "tfjob", "--workers", "2", "x.py"],
     "tf1compat: error: --emit tfjob needs --image IMAGE: the container image every replica "
     "runs (with tf1compat, TensorFlow and the script in it)"),
    (["--emit", "tfjob", "--image", IMAGE, "--name", "Train_1", "x.py"],
     "tf1compat: error: invalid --name: received 'Train_1'; accepted: a Kubernetes DNS-1035 "
     "label: lowercase letters, digits and '-', starting with a letter and ending with a "
     "letter or digit, at most 54 characters here (the operator names a service "
     "'NAME-worker-0', 63 characters at most)"),
    (["--emit", "tfjob", "--image", IMAGE, "--evaluator", "--name", "a" * 52, "x.py"],
     "tf1compat: error: invalid --name: received '" + "a" * 52 + "'; accepted: a Kubernetes "
     "DNS-1035 label: lowercase letters, digits and '-', starting with a letter and ending "
     "with a letter or digit, at most 51 characters here (the operator names a service "
     "'NAME-evaluator-0', 63 characters at most)"),
    (["--emit", "tfjob", "--image", IMAGE, "--namespace", "Team.A", "x.py"],
     "tf1compat: error: invalid --namespace: received 'Team.A'; accepted: a Kubernetes "
     "DNS-1123 label: lowercase letters, digits and '-', starting and ending with a letter "
     "or digit, at most 63 characters"),
    (["--emit", "tfjob", "--image", IMAGE, "--memory-per-task", "4GB", "x.py"],
     "tf1compat: error: invalid --memory-per-task: received '4GB'; accepted: a Kubernetes "
     "quantity, e.g. 4Gi or 512Mi"),
    (["--emit", "tfjob", "--image", IMAGE, "--ports", "2222", "x.py"],
     "tf1compat: error: --ports cannot go with --emit tfjob: the training operator gives the "
     "hosts (port 2222) and ends the job (the chief, else every worker)"),
    (["--image", IMAGE, "--workers", "2", "x.py"],
     "tf1compat: error: --image needs --emit tfjob"),
    (["--from-tf-config", "--workers", "2", "x.py"],
     "tf1compat: error: --workers cannot go with --from-tf-config: TF_CONFIG gives the "
     "cluster and this task"),
])
def test_bad_input_is_one_line_naming_the_value_and_the_rule(args, expected):
    result = run_cli("launch", *args, timeout=60)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert lines == [expected]
