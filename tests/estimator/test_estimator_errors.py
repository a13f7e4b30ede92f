"""Estimator mistakes under `tf1compat run`: each fails with one line naming its cause."""

import textwrap
from pathlib import Path

import pytest

from isolated import run_cli, run_json

SCRIPTS = {
    "wrong_signature": ("""
        import tensorflow as tf
        def model_fn(features, labels, mode, hparams):
            return None
        estimator = tf.estimator.Estimator(model_fn)
        """, ["model_fn model_fn(features, labels, mode, hparams)", "it takes hparams",
              "accepted arguments: features, labels, mode, params, config"]),
    "no_features": ("""
        import tensorflow as tf
        estimator = tf.estimator.Estimator(lambda inputs, labels: None)
        """, ["it has no 'features' argument"]),
    "missing_loss": ("""
        import numpy as np
        import tensorflow as tf
        def model_fn(features, labels, mode):
            logits = tf.layers.dense(features["x"], 2)
            train_op = tf.train.get_global_step().assign_add(1)
            return tf.estimator.EstimatorSpec(mode, predictions=logits, train_op=train_op)
        inputs = tf.estimator.inputs.numpy_input_fn(
            {"x": np.zeros((4, 2), np.float32)}, np.zeros(4, np.int32), shuffle=False)
        tf.estimator.Estimator(model_fn).train(inputs, steps=1)
        """, ["EstimatorSpec(mode='train') is rejected: missing loss",
              "given: predictions, train_op", "needs loss and train_op"]),
    "bad_session_config": ("""
        import tensorflow as tf
        options = tf.GPUOptions(per_process_gpu_memory_fraction=1.5)
        tf.estimator.RunConfig(session_config=tf.ConfigProto(gpu_options=options))
        """, ["RunConfig(session_config=...) is rejected", "memory_fraction=1.5",
              "accepted: a number greater than 0 and at most 1"]),
    "session_config_of_the_wrong_type": ("""
        import tensorflow as tf
        tf.estimator.RunConfig(session_config={"allow_soft_placement": True})
        """, ["RunConfig(session_config=...) is rejected",
              "accepted: a tf.compat.v1.ConfigProto"]),
}


@pytest.mark.parametrize("case", sorted(SCRIPTS))
def test_an_estimator_mistake_names_its_cause(tmp_path, case):
    source, expected = SCRIPTS[case]
    path = tmp_path / f"{case}.py"
    path.write_text(textwrap.dedent(source))
    result = run_cli("run", str(path))
    assert result.returncode == 1, result.stderr[-3000:]
    line = next((line for line in result.stderr.splitlines() if "EstimatorError:" in line), "")
    for text in expected:
        assert text in line, f"{text!r} not in {line!r}\n{result.stderr[-3000:]}"


def test_run_config_gpu_options_are_tracked_for_the_process_as_sessions_are():
    result = run_json("""
        import json, warnings
        import tensorflow as tf
        import tf1compat
        from tf1compat.estimator import RunConfig
        first = RunConfig(session_config=tf.compat.v1.ConfigProto(
            gpu_options=tf.compat.v1.GPUOptions(allow_growth=True)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            RunConfig(session_config=tf.compat.v1.ConfigProto(
                gpu_options=tf.compat.v1.GPUOptions(allow_growth=True)))
            same = len(caught)
            with tf1compat.session(growth=False):
                pass
        texted = RunConfig(session_config="allow_soft_placement: true")
        print(json.dumps({
            "same": same, "warnings": [str(w.message) for w in caught],
            "categories": [w.category.__name__ for w in caught],
            "kept": first.session_config.gpu_options.allow_growth,
            "from_text": texted.session_config.allow_soft_placement}))
        """)
    assert result["same"] == 0  # asking again for what the process has is no news
    assert result["categories"] == ["GpuOptionsIgnoredWarning"]
    assert "asks growth=False" in result["warnings"][0]
    assert result["kept"] is True and result["from_text"] is True


def test_a_tpu_estimator_asking_for_a_tpu_on_a_machine_without_one_says_so(tmp_path):
    script = Path(__file__).resolve().parent / "scripts" / "tpu_estimator_bert_style.py"
    result = run_cli("run", str(script), "--use_tpu=True", "--output_dir", str(tmp_path / "m"),
                     "--out", str(tmp_path / "out.json"))
    assert result.returncode == 1
    line = next((line for line in result.stderr.splitlines() if "EstimatorError:" in line), "")
    assert "TPUEstimator(use_tpu=True) needs a TPU, and this machine has none" in line, \
        result.stderr[-3000:]
    assert "pass use_tpu=False" in line
