"""What `tf1compat run` serves as `tf.estimator`, and `tf1compat.estimator` imported directly."""

import json
import textwrap

import numpy as np

from isolated import run_cli, run_json


def test_run_serves_tf_estimator_and_tf_compat_v1_estimator_and_reports_them(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent("""
        import sys
        import numpy as np
        import tensorflow as tf
        from tensorflow.estimator import inputs
        assert tf.compat.v1.estimator.Estimator is tf.estimator.Estimator
        x = np.random.RandomState(0).randn(64, 2).astype(np.float32)
        y = (x[:, 0] > 0).astype(np.int32)
        train = inputs.numpy_input_fn({"x": x}, y, batch_size=16, num_epochs=None,
                                      shuffle=False)
        test = inputs.numpy_input_fn({"x": x}, y, batch_size=32, shuffle=False)
        columns = [tf.feature_column.numeric_column("x", shape=[2])]
        linear = tf.estimator.LinearClassifier(columns, model_dir=sys.argv[1] + "/linear")
        metrics, _ = tf.estimator.train_and_evaluate(
            linear, tf.estimator.TrainSpec(train, max_steps=30),
            tf.estimator.EvalSpec(test, steps=None, throttle_secs=0))
        baseline = tf.compat.v1.estimator.BaselineClassifier(model_dir=sys.argv[1] + "/baseline")
        baseline.train(train, steps=5)
        print("linear", metrics["global_step"], metrics["accuracy"] > 0.9,
              "baseline", baseline.evaluate(test)["accuracy"])
        """))
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path), str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    words = result.stdout.split()
    assert words[:4] == ["linear", "30", "True", "baseline"]
    # a baseline classifier predicts the majority class: its accuracy is that class's share
    labels = np.random.RandomState(0).randn(64, 2).astype(np.float32)[:, 0] > 0
    assert abs(float(words[4]) - max(labels.mean(), 1 - labels.mean())) < 1e-6
    symbols = json.loads(report.read_text())["symbols"]
    assert symbols["tf.estimator.train_and_evaluate"]["target"] == \
        "tf1compat.estimator.train_and_evaluate"
    assert symbols["tf.estimator.LinearClassifier"]["status"] == "replaced"


def test_tf1compat_estimator_imported_directly_needs_no_runner():
    result = run_json("""
        import json, sys
        import tf1compat.estimator as estimator
        loaded_early = "tensorflow_estimator" in sys.modules
        keys = estimator.ModeKeys.TRAIN, estimator.ModeKeys.EVAL, estimator.ModeKeys.PREDICT
        print(json.dumps({"loaded_early": loaded_early, "keys": keys,
                          "names": [name for name in ("DNNClassifier", "LinearClassifier",
                                    "DNNLinearCombinedClassifier", "BaselineRegressor",
                                    "train_and_evaluate", "TrainSpec", "EvalSpec",
                                    "WarmStartSettings", "inputs", "export")
                                    if name in dir(estimator)]}))
        """)
    assert result["loaded_early"] is False  # importing the package loads nothing
    assert result["keys"] == ["train", "eval", "infer"]
    assert len(result["names"]) == 10

