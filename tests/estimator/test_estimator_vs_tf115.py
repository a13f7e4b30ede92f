"""Estimator scripts under `tf1compat run` on TF 2.21 against TensorFlow 1.15's own Estimator.

Same script, same data, same initial weights (numpy initialisers, a warm
start for the premade DNN): the losses of every step, the eval metrics, the
predictions, the checkpoint's variable names and shapes and the global step
must agree. Float tolerances are 1e-4 (TF 2.21's oneDNN kernels and TF
1.15's Eigen ones differ in the last digits of float32 sums).
"""

import pytest

from estimator.reference import (assert_close, copy_model_dir, needs_tf1, run_here, run_migrated,
                                 run_tf1)

TOLERANCE = 1e-4
# One worker runs the module, so its module-scoped TF 1.15 and TF 2.21 trainings run once.
pytestmark = [pytest.mark.usefixtures("reference_interpreter"), pytest.mark.xdist_group("test_estimator_vs_tf115")]


@pytest.fixture
def reference_interpreter():
    return needs_tf1()


@pytest.fixture(scope="module")
def iris_csv(tmp_path_factory):
    import numpy as np

    path = tmp_path_factory.mktemp("csv") / "iris.csv"
    rng = np.random.RandomState(5)
    rows = ["sepal_length,sepal_width,petal_length,petal_width,colour,species"]
    for index in range(150):
        species = index % 3
        centre = np.array([5.0 + species * 0.5, 3.3 - species * 0.2, 1.5 + species * 0.9,
                           0.2 + species * 0.5])
        values = rng.randn(4) * 0.5 + centre
        colour = ["red", "green", "blue"][rng.randint(3)]  # noise: says nothing of species
        rows.append(",".join("%.3f" % value for value in values) + f",{colour},{species}")
    path.write_text("\n".join(rows) + "\n")
    return path


def assert_same_training(ours, reference):
    assert ours["global_step"] == reference["global_step"]
    assert ours["variables"] == reference["variables"]
    for key, value in reference["metrics"].items():
        assert_close(ours["metrics"][key], value, TOLERANCE, f"metric {key}")
    assert_close(ours["probabilities"], reference["probabilities"], TOLERANCE, "probabilities")


def test_a_custom_model_fn_with_hooks_and_metrics_trains_as_under_tf115(tmp_path):
    args = ["--model_dir", str(tmp_path / "model"), "--steps", "40"]
    reference = run_tf1("custom_model_fn.py", *args, cwd=tmp_path)
    args[1] = str(tmp_path / "model_here")
    ours = run_here("custom_model_fn.py", *args, cwd=tmp_path)
    assert len(ours["losses"]) == len(reference["losses"]) == 40
    assert_close(ours["losses"], reference["losses"], TOLERANCE, "per-step losses")
    assert ours["losses"][-1] < ours["losses"][0] / 5  # it learned
    assert ours["checkpoint"] == reference["checkpoint"] == "model.ckpt-40"
    assert_same_training(ours, reference)
    assert_close(ours["hidden_kernel"], reference["hidden_kernel"], TOLERANCE, "hidden/kernel")
    names = [name for name, _ in ours["variables"]]
    assert {"hidden/kernel/Adam", "beta1_power", "global_step"} <= set(names)


def test_a_tf115_model_dir_resumes_here_and_the_reverse(tmp_path):
    first = ["--steps", "20"]
    run_tf1("custom_model_fn.py", "--model_dir", str(tmp_path / "tf1"), *first, cwd=tmp_path)
    copy_model_dir(tmp_path / "tf1", tmp_path / "tf1_then_here")
    reference = run_tf1("custom_model_fn.py", "--model_dir", str(tmp_path / "tf1"), *first,
                        cwd=tmp_path)
    ours = run_here("custom_model_fn.py", "--model_dir", str(tmp_path / "tf1_then_here"),
                    *first, cwd=tmp_path)
    assert ours["global_step"] == reference["global_step"] == 40
    assert_close(ours["losses"], reference["losses"], TOLERANCE, "losses after resuming")
    assert_same_training(ours, reference)

    # the reverse: 20 steps here, then TF 1.15 resumes them
    run_here("custom_model_fn.py", "--model_dir", str(tmp_path / "here"), *first, cwd=tmp_path)
    copy_model_dir(tmp_path / "here", tmp_path / "here_then_tf1")
    resumed_by_tf1 = run_tf1("custom_model_fn.py", "--model_dir",
                             str(tmp_path / "here_then_tf1"), *first, cwd=tmp_path,
                             live=True)  # a model_dir trained here: no record stands for it
    assert resumed_by_tf1["global_step"] == 40
    assert_close(resumed_by_tf1["losses"], reference["losses"], TOLERANCE,
                 "TF 1.15's losses resuming a model_dir written here")


PREMADE_VARIABLES = {
    "dnn": {"dnn/hiddenlayer_0/kernel/t_0/Adagrad", "dnn/logits/bias"},
    "linear": {"linear/linear_model/bias_weights",
               "linear/linear_model/colour_indicator/weights"},
    "wide_deep": {"dnn/hiddenlayer_1/kernel", "linear/linear_model/bias_weights",
                  "linear/linear_model/colour_X_petal_width_bucketized/weights"},
}


@pytest.mark.parametrize("model", sorted(PREMADE_VARIABLES))
def test_a_premade_classifier_on_a_csv_trains_as_under_tf115(tmp_path, iris_csv, model):
    args = ["--csv", str(iris_csv), "--steps", "60", "--model", model]
    reference = run_tf1("dnn_csv.py", *args, "--model_dir", str(tmp_path / "tf1"), cwd=tmp_path)
    ours = run_here("dnn_csv.py", *args, "--model_dir", str(tmp_path / "here"), cwd=tmp_path)
    assert_same_training(ours, reference)
    assert ours["classes"] == reference["classes"]
    assert 0.6 < ours["metrics"]["accuracy"] < 1.0, ours["metrics"]  # learned, not trivially
    names = {name for name, _ in ours["variables"]}
    assert PREMADE_VARIABLES[model] | {"global_step"} <= names, sorted(names)


def test_a_bert_style_tpu_estimator_with_use_tpu_false_runs_as_under_tf115(tmp_path):
    script = "tpu_estimator_bert_style.py"
    reference = run_tf1(script, "--output_dir", str(tmp_path / "tf1"), cwd=tmp_path)
    ours = run_here(script, "--output_dir", str(tmp_path / "here"), cwd=tmp_path)
    assert_same_training(ours, reference)
    assert ours["predictions"] == reference["predictions"] == 96
    assert 0.5 < ours["metrics"]["eval_accuracy"] < 1.0


def model_dir_args(script, folder):
    flag = "--output_dir" if script.startswith("tpu") else "--model_dir"
    return [flag, str(folder)]


@pytest.mark.parametrize("script", ["custom_model_fn.py", "dnn_csv.py",
                                    "tpu_estimator_bert_style.py"])
def test_after_migrate_the_script_runs_under_plain_python_as_under_tf115(tmp_path, iris_csv,
                                                                         script):
    args = ["--csv", str(iris_csv)] if script == "dnn_csv.py" else []
    reference = run_tf1(script, *args, *model_dir_args(script, tmp_path / "tf1"), cwd=tmp_path)
    ours = run_migrated(script, *args, *model_dir_args(script, tmp_path / "here"), cwd=tmp_path)
    assert_same_training(ours, reference)
