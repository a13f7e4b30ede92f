"""`tf.contrib.estimator` on TF 2.21: its helpers against TensorFlow 1.15, and its mistakes."""

import textwrap

import pytest

from estimator.reference import assert_close, needs_tf1, run_here, run_tf1
from isolated import run_cli, run_json

EXTRAS = "contrib_estimator_extras.py"


def test_clip_add_metrics_forward_features_and_early_stopping_work_as_under_tf115(tmp_path):
    needs_tf1()
    reference = run_tf1(EXTRAS, "--model_dir", str(tmp_path / "tf1"), cwd=tmp_path)
    ours = run_here(EXTRAS, "--model_dir", str(tmp_path / "here"), cwd=tmp_path)
    # GradientDescent(1.0) on big errors, clipped to a global norm of 0.01: a step of 0.01
    assert abs(ours["step_norm"] - 0.01) < 1e-6
    assert_close(ours["step"], reference["step"], 1e-6, "the clipped step")
    assert sorted(ours["metrics"]) == ["global_step", "loss", "mean_label", "mean_score"]
    for key, value in reference["metrics"].items():
        assert_close(ours["metrics"][key], value, 1e-4 * max(1.0, abs(value)), f"metric {key}")
    assert ours["prediction_keys"] == reference["prediction_keys"] == ["id", "score"]
    assert ours["forwarded_ids"] == reference["forwarded_ids"] == list(range(100, 116))
    assert_close(ours["scores"], reference["scores"], 1e-5, "scores")
    assert ours["hook_is_a_session_run_hook"] and ours["global_step"] == 1
    assert ours["variables"] == reference["variables"]  # the hook's STOP variable included


def test_the_contrib_names_and_the_mistakes_of_replicate_model_fn():
    result = run_json("""
        import json
        import tensorflow as tf
        import tf1compat.estimator as estimator
        from tf1compat.estimator import contrib
        from tf1compat.estimator.errors import EstimatorError

        def error(call):
            try:
                call()
            except EstimatorError as caught:
                return str(caught)
            return None

        def model_fn(features, labels, mode):
            loss = tf.reduce_sum(features["x"])
            return estimator.EstimatorSpec(mode, loss=loss, train_op=tf.no_op())

        v1 = tf.compat.v1
        graph = tf.Graph()
        with graph.as_default():
            odd_batch = error(lambda: contrib.replicate_model_fn(
                model_fn, devices=["/cpu:0", "/cpu:0"])({"x": tf.zeros([5, 4])}, None, "train"))
            # one tower: TowerOptimizer is the optimizer it wraps
            w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
            step = contrib.TowerOptimizer(v1.train.GradientDescentOptimizer(0.5)).minimize(
                tf.reduce_sum(w * w))
            with v1.Session() as session:
                session.run(v1.global_variables_initializer())
                session.run(step)
                after_one_step = session.run(w).tolist()
        print(json.dumps({
            "dir": dir(contrib),
            "same_hook": contrib.stop_if_no_decrease_hook is
                         estimator.experimental.stop_if_no_decrease_hook,
            "add_metrics": contrib.add_metrics is estimator.add_metrics,
            "unknown": error(lambda: contrib.multi_head),
            "reduction_none": error(lambda: contrib.replicate_model_fn(
                model_fn, loss_reduction=v1.losses.Reduction.NONE)),
            "device_string": error(lambda: contrib.replicate_model_fn(model_fn, devices="/gpu:0")),
            "bad_device": error(lambda: contrib.replicate_model_fn(model_fn, devices=["gpu0"])),
            "odd_batch": odd_batch,
            "after_one_step": after_one_step,
        }))
        """)
    assert {"replicate_model_fn", "TowerOptimizer", "forward_features", "clip_gradients_by_norm",
            "add_metrics", "stop_if_no_decrease_hook", "stop_if_higher_hook"} <= \
        set(result["dir"])
    assert result["same_hook"] and result["add_metrics"]
    assert "tf.contrib.estimator.multi_head is not served by tf1compat" in result["unknown"]
    assert "canned estimators" in result["unknown"]
    assert "Tower losses need to be reduced in some way, yet none reduction" in \
        result["reduction_none"]
    assert "received the string '/gpu:0' (write ['/gpu:0'])" in result["device_string"]
    assert "'gpu0' is not a device name" in result["bad_device"]
    assert "accepted: names such as '/gpu:0'" in result["bad_device"]
    assert "Batch size 5 needs to be divisible by the number of GPUs, which is 2" in \
        result["odd_batch"]
    assert result["after_one_step"] == pytest.approx([0.0, 0.0])  # w - 0.5 * 2w


def test_under_run_an_unserved_contrib_estimator_name_says_what_to_use(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent("""
        import tensorflow as tf
        assert callable(tf.contrib.estimator.replicate_model_fn)
        head = tf.contrib.estimator.multi_class_head(3)
        """))
    result = run_cli("run", str(path))
    assert result.returncode == 1
    line = next((line for line in result.stderr.splitlines() if "Error:" in line), "")
    assert "tf.contrib.estimator.multi_class_head" in line, result.stderr[-3000:]
    assert "not served by tf1compat: use the tf.estimator canned estimators" in line
