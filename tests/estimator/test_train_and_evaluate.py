"""`tf.estimator.train_and_evaluate` locally and on a cluster, against TensorFlow 1.15.

Locally the run is deterministic: the final metrics, the predictions, the
checkpoint's variables and global step must equal TF 1.15's. On a cluster
(chief, 1 ps, 2 workers and an evaluator, started by `tf1compat launch`)
training is asynchronous: which task takes which step, and so the trained
values, differ from run to run, under TF 1.15 as here. What is deterministic
is compared with the same cluster under TF 1.15: the checkpoint's variable
names, the global step the chief's checkpoint reaches, the evaluator's
metric names, and that it stopped once a checkpoint reached max_steps.
"""

import numpy as np
import pytest

from estimator.clusters import TASKS, launched_here, local_here, local_tf1, tf1_cluster
from estimator.reference import assert_close, needs_tf1

TOLERANCE = 1e-4
MAX_STEPS = 120
# One worker runs the module, so its module-scoped TF 1.15 and TF 2.21 trainings run once.
pytestmark = [pytest.mark.usefixtures("reference_interpreter"), pytest.mark.timeout(900),
              pytest.mark.xdist_group("test_train_and_evaluate")]


@pytest.fixture
def reference_interpreter():
    return needs_tf1()


def test_train_and_evaluate_locally_ends_as_under_tf115(tmp_path):
    reference = local_tf1(tmp_path / "tf1")
    ours = local_here(tmp_path / "here")
    metrics, exports = ours["returned"]
    assert exports == reference["returned"][1] == []
    for key, value in reference["returned"][0].items():
        assert_close(metrics[key], value, TOLERANCE * max(1.0, abs(value)), f"metric {key}")
    assert metrics["global_step"] == ours["global_step"] == 60 == ours["steps"]
    assert ours["checkpoint"] == reference["checkpoint"] == "model.ckpt-60"
    assert ours["variables"] == reference["variables"]
    assert_close(ours["probabilities"], reference["probabilities"], TOLERANCE, "probabilities")
    # the evaluation train_and_evaluate returned is the one its eval dir recorded last
    assert ours["eval_events"]["step"] == 60
    for key, value in ours["eval_events"]["values"].items():
        assert_close(value, metrics[key], 1e-6, f"eval event {key}")


@pytest.fixture(scope="module")
def cluster_here(tmp_path_factory):
    return launched_here(tmp_path_factory.mktemp("launched") / "run", MAX_STEPS)


def test_launch_runs_chief_ps_two_workers_and_an_evaluator_to_the_end(cluster_here):
    assert cluster_here["status"] == 0, "\n".join(cluster_here["lines"][-60:])
    assert sorted(cluster_here["tasks"]) == ["chief:0", "evaluator:0", "ps:0", "worker:0",
                                             "worker:1"]
    assert len(cluster_here["pids"]) == 10  # each task and the script it ran, the ps too
    assert cluster_here["left"] == [], "processes left running"
    results = cluster_here["results"]
    chief, evaluator = results["chief-0"], results["evaluator-0"]
    steps = {task: results[task]["steps"] for task in TASKS[:3]}
    # the global step counts every trainer's steps: the chief's alone fall short of it
    assert min(steps.values()) >= 1, steps
    assert MAX_STEPS <= chief["global_step"] <= sum(steps.values()), (chief, steps)
    assert steps["chief-0"] < chief["global_step"]
    assert chief["checkpoint"] == f"model.ckpt-{chief['global_step']}"
    names = {name for name, _ in chief["variables"]}
    assert {"dnn/hiddenlayer_0/kernel", "dnn/logits/bias", "global_step"} <= names
    # the evaluator stopped after the first checkpoint at max_steps or beyond (the chief may
    # write one more as it closes, counting steps the workers took meanwhile), as TF 1.15's
    assert MAX_STEPS <= evaluator["eval_events"]["step"] <= chief["global_step"]
    assert evaluator["eval_events"]["values"]["accuracy"] > 0.8
    assert np.allclose(np.sum(evaluator["probabilities"], axis=1), 1.0)


def test_the_cluster_reaches_what_tf115_reaches(cluster_here, tmp_path):
    reference = tf1_cluster(tmp_path / "tf1", MAX_STEPS)
    assert cluster_here["status"] == 0
    ours = cluster_here["results"]
    assert ours["chief-0"]["variables"] == reference["chief-0"]["variables"]
    for results in (ours, reference):
        chief = results["chief-0"]
        assert MAX_STEPS <= chief["global_step"] <= sum(results[t]["steps"] for t in TASKS[:3])
        assert MAX_STEPS <= results["evaluator-0"]["eval_events"]["step"] <= chief["global_step"]
    assert sorted(ours["evaluator-0"]["eval_events"]["values"]) == \
        sorted(reference["evaluator-0"]["eval_events"]["values"])
    assert reference["evaluator-0"]["eval_events"]["values"]["accuracy"] > 0.8
