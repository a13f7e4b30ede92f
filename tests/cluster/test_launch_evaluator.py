"""`tf1compat launch --evaluator`: a task outside the cluster, as train_and_evaluate expects.

Small Python scripts (no TensorFlow) as tasks; the Estimator run itself is in
tests/estimator/test_train_and_evaluate.py.
"""

import json


from isolated import run_cli
from launch_helpers import write_script


ECHO = """
    import json, os, sys, time
    if os.environ["TF1COMPAT_TASK"] == "ps:0":
        time.sleep(600)  # a ps serves until it is stopped
    if os.environ["TF1COMPAT_TASK"] == "evaluator:0":
        time.sleep(float(sys.argv[1]))  # the last to finish: the run must wait for it
    print(json.dumps({"task": os.environ["TF1COMPAT_TASK"],
                      "tf_config": json.loads(os.environ["TF_CONFIG"])}), flush=True)
"""


def _documents(stdout):
    return {json.loads(line.partition("] ")[2])["task"]: json.loads(line.partition("] ")[2])
            for line in stdout.splitlines() if line.startswith("[")}


def test_the_evaluator_gets_the_training_cluster_and_a_task_outside_it(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", "--chief", "--ps", "1", "--workers", "2", "--evaluator",
                     "--grace", "2", str(script), "1.5", timeout=90)
    assert result.returncode == 0, result.stderr
    seen = _documents(result.stdout)
    # the ps was stopped; every other task, the evaluator last, finished by itself
    assert sorted(seen) == ["chief:0", "evaluator:0", "worker:0", "worker:1"]
    evaluator = seen["evaluator:0"]["tf_config"]
    assert evaluator["task"] == {"type": "evaluator", "index": 0}
    assert evaluator["cluster"] == seen["chief:0"]["tf_config"]["cluster"]
    assert sorted(evaluator["cluster"]) == ["chief", "ps", "worker"]
    assert "started evaluator:0 pid" in result.stderr
    assert "127.0.0.1 (no server)" in result.stderr


def test_evaluator_with_a_hostfile_is_refused_by_name(tmp_path):
    hostfile = tmp_path / "hosts.txt"
    hostfile.write_text("127.0.0.1:2222 worker\n")
    result = run_cli("launch", "--hostfile", str(hostfile), "--evaluator", "x.py", timeout=60)
    assert result.returncode != 0
    assert "--evaluator" in result.stderr and "Traceback" not in result.stderr
