"""Canned wide & deep models and regressors on every kind of feature column, against TF 1.15.

scripts/wide_and_deep.py runs under TensorFlow 1.15 and under `tf1compat run`
with the same data and the same initial weights; the eval metrics, the
predictions, the checkpoint's variable names and shapes and the global step
must agree. The linear weights of the hashed column and of the crossed column
must be trained in the same buckets: TF 1.15 and TF 2.21 hash strings
(`categorical_column_with_hash_bucket`, `crossed_column`) with the same
fingerprint functions. A model_dir trained under TF 1.15 continues here, and
the reverse, as one TensorFlow training twice would.
"""

import numpy as np
import pytest

from estimator.reference import (assert_close, copy_model_dir, needs_tf1, run_here, run_migrated,
                                 run_tf1)

TOLERANCE = 1e-4  # absolute; relative for summed losses, whose size grows with the batch
SCRIPT = "wide_and_deep.py"
# One worker runs the module, so its module-scoped TF 1.15 and TF 2.21 trainings run once.
pytestmark = [pytest.mark.usefixtures("reference_interpreter"), pytest.mark.xdist_group("test_canned_wide_deep")]


@pytest.fixture
def reference_interpreter():
    return needs_tf1()


def assert_metrics_close(ours, reference):
    assert sorted(ours) == sorted(reference)
    for key, value in reference.items():
        assert_close(ours[key], value, TOLERANCE * max(1.0, abs(value)), f"metric {key}")


def assert_same_model(ours, reference, prediction_keys):
    assert ours["global_step"] == reference["global_step"]
    assert ours["variables"] == reference["variables"]
    assert_metrics_close(ours["metrics"], reference["metrics"])
    for key in prediction_keys:
        assert_close(ours[key], reference[key], TOLERANCE, key)
    assert sorted(ours["hashed"]) == sorted(reference["hashed"])
    for name, weights in reference["hashed"].items():
        trained = np.flatnonzero(np.asarray(weights))
        assert np.array_equal(np.flatnonzero(np.asarray(ours["hashed"][name])), trained), \
            f"{name}: trained buckets differ: strings hashed to other buckets"
        assert_close(ours["hashed"][name], weights, TOLERANCE, name)


@pytest.fixture(scope="module")
def tf1_classifier(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tf1_wide_and_deep")
    return run_tf1(SCRIPT, "--model_dir", str(folder / "tf1"), cwd=folder)


def test_wide_and_deep_classifier_on_every_feature_column_trains_as_under_tf115(tmp_path,
                                                                                tf1_classifier):
    reference = tf1_classifier
    ours = run_here(SCRIPT, "--model_dir", str(tmp_path / "here"), cwd=tmp_path)
    assert_same_model(ours, reference, ["probabilities", "logits"])
    assert ours["global_step"] == 40
    assert 0.6 < ours["metrics"]["accuracy"] < 1.0, ours["metrics"]  # learned, not trivially
    names = {name for name, _ in ours["variables"]}
    assert {"linear/linear_model/age_bucketized_X_education_X_occupation/weights",
            "linear/linear_model/occupation/weights/Ftrl",
            "dnn/input_from_feature_columns/input_layer/occupation_embedding/embedding_weights",
            "dnn/hiddenlayer_1/kernel/Adagrad", "global_step"} <= names, sorted(names)
    # 8 occupations in 16 hash buckets: at least 2 buckets trained, some left at zero
    occupation = np.asarray(ours["hashed"]["linear/linear_model/occupation/weights"])
    assert 2 <= np.count_nonzero(occupation) < occupation.size


def test_linear_dnn_baseline_and_wide_deep_regressors_train_as_under_tf115(tmp_path):
    args = ["--model", "regressors", "--steps", "30"]
    reference = run_tf1(SCRIPT, *args, "--model_dir", str(tmp_path / "tf1"), cwd=tmp_path)
    ours = run_here(SCRIPT, *args, "--model_dir", str(tmp_path / "here"), cwd=tmp_path)
    assert sorted(ours) == sorted(reference) == ["baseline", "dnn", "linear", "wide_deep"]
    for name in sorted(reference):
        assert_same_model(ours[name], reference[name], ["predictions"])
        assert ours[name]["global_step"] == 30
        metrics = ours[name]["metrics"]
        assert np.isfinite(metrics["average_loss"]), (name, metrics)
    # the baseline predicts one value for every row: the bias it learned
    assert len({round(p[0], 6) for p in ours["baseline"]["predictions"]}) == 1


def test_a_tf115_wide_and_deep_model_dir_continues_here_and_the_reverse(tmp_path):
    first = ["--steps", "15"]
    run_tf1(SCRIPT, "--model_dir", str(tmp_path / "tf1"), *first, cwd=tmp_path)
    copy_model_dir(tmp_path / "tf1", tmp_path / "tf1_then_here")
    reference = run_tf1(SCRIPT, "--model_dir", str(tmp_path / "tf1"), *first, cwd=tmp_path)
    ours = run_here(SCRIPT, "--model_dir", str(tmp_path / "tf1_then_here"), *first,
                    cwd=tmp_path)
    assert reference["global_step"] == 30
    assert_same_model(ours, reference, ["probabilities"])

    run_here(SCRIPT, "--model_dir", str(tmp_path / "here"), *first, cwd=tmp_path)
    copy_model_dir(tmp_path / "here", tmp_path / "here_then_tf1")
    resumed_by_tf1 = run_tf1(SCRIPT, "--model_dir", str(tmp_path / "here_then_tf1"), *first,
                             cwd=tmp_path, live=True)  # a model_dir trained here: no record
    assert_same_model(resumed_by_tf1, reference, ["probabilities"])


def test_after_migrate_wide_and_deep_runs_under_plain_python_as_under_tf115(tmp_path,
                                                                            tf1_classifier):
    ours = run_migrated(SCRIPT, "--model_dir", str(tmp_path / "here"), cwd=tmp_path)
    assert_same_model(ours, tf1_classifier, ["probabilities", "logits"])
