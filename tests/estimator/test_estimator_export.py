"""An Estimator's `export_saved_model` output, loaded in plain TF 2.21, predicts as the Estimator did.

The export is made under `tf1compat run`; the loading process imports only
TensorFlow (no tf1compat): this is the bridge from an Estimator to TF2 serving.
"""

import csv
import json

from estimator.reference import assert_close, run_here
from isolated import run_json


def load_and_call(source_setup, export_dir, call):
    return run_json(f"""
        import json
        import tensorflow as tf
        {source_setup}
        model = tf.saved_model.load({export_dir!r})
        signature = model.signatures["serving_default"]
        outputs = {call}
        print(json.dumps({{"keys": sorted(signature.structured_outputs),
                           "values": outputs}}))
        """)


def test_a_custom_model_fn_export_serves_its_predictions_in_tf2(tmp_path):
    ours = run_here("custom_model_fn.py", "--model_dir", str(tmp_path / "model"), "--steps", "30",
                    "--export_dir", str(tmp_path / "export"), cwd=tmp_path)
    served = load_and_call(f"x = tf.constant({ours['test_x']!r}, tf.float32)", ours["export"],
                           'signature(x=x)["probabilities"].numpy().tolist()')
    assert served["keys"] == ["class", "probabilities"]
    assert_close(served["values"], ours["probabilities"], 1e-6, "served probabilities")


def test_a_premade_dnn_export_parses_tf_examples_and_serves_the_same_scores(tmp_path):
    path = tmp_path / "data.csv"
    rows = [["sepal_length", "sepal_width", "petal_length", "petal_width", "colour", "species"]]
    rows += [[5.0 + 0.1 * (i % 7), 3.0 - 0.05 * i, 1.0 + 0.3 * i, 0.1 + 0.15 * i,
              ["red", "green", "blue"][i % 3], i % 3] for i in range(30)]
    with path.open("w", newline="") as out:
        csv.writer(out).writerows(rows)
    ours = run_here("dnn_csv.py", "--csv", str(path), "--model_dir", str(tmp_path / "model"),
                    "--steps", "20", "--export_dir", str(tmp_path / "export"), cwd=tmp_path)
    examples = [{"sepal_length": r[0], "sepal_width": r[1], "petal_length": r[2],
                 "petal_width": r[3], "colour": r[4]} for r in rows[1:11]]
    setup = f"""
        def example(row):
            feature = {{key: tf.train.Feature(bytes_list=tf.train.BytesList(value=[value.encode()]))
                        if isinstance(value, str) else
                        tf.train.Feature(float_list=tf.train.FloatList(value=[value]))
                        for key, value in row.items()}}
            return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
        serialized = tf.constant([example(row) for row in {json.dumps(examples)}])
        """
    served = load_and_call(setup, ours["export"],
                           'signature(inputs=serialized)["scores"].numpy().tolist()')
    assert served["keys"] == ["classes", "scores"]
    assert_close(served["values"], ours["probabilities"], 1e-6, "served scores")
