"""TF 1.15's tf.keras and Keras 2 names that tf_keras dropped, three ways: TF 1.15 (recorded,
with Keras 2.3.1 for the standalone script), `tf1compat run`, `migrate` then plain Python.

`Sequential.predict_classes`/`predict_proba`, the scikit-learn wrappers, `HDF5Matrix`,
`convert_all_kernels_in_model` and the linear cosine decay schedules are served by
tf1compat's Keras 2 (`tf1compat.keras2.dropped`); the three print the same numbers.
"""

import subprocess
import sys

import pytest

from budgets import budget
from isolated import python_env, run_cli
from keras2 import reference
from tf1compat.compare.printed_numbers import compare

SCRIPTS = ("tf_keras_dropped.py", "keras2_dropped.py")


@pytest.mark.parametrize("name", SCRIPTS)
def test_names_tf_keras_dropped_print_tf115s_numbers_under_run_and_after_migrate(
        name, tf1_python, tmp_path):
    script = reference.SCRIPTS / name
    expected = reference.printed(reference.run(tf1_python, [script], outputs=[]).stdout)
    assert expected.count("\n") >= 4, expected

    under_run = run_cli("run", "--no-report", str(script))
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    comparison = compare(expected, reference.printed(under_run.stdout))
    assert comparison.ok, comparison.report()

    from tf1compat.migrate.driver import migrate_source

    migrated, findings = migrate_source(script.read_text(), script.name, "tf1compat")
    assert "tf1compat.keras2.wrappers.scikit_learn" in migrated, migrated
    assert "tensorflow.keras" not in migrated and "from keras" not in migrated, migrated
    path = tmp_path / name
    path.write_text(migrated)
    plain = {key: value for key, value in python_env().items()  # nothing chooses legacy Keras
             if key != "TF_USE_LEGACY_KERAS"}
    after = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                           env=plain, cwd=str(tmp_path), timeout=budget(240, floor=240))
    assert after.returncode == 0, after.stderr[-3000:]
    comparison = compare(expected, reference.printed(after.stdout))
    assert comparison.ok, comparison.report()


def test_migrate_imports_a_dropped_name_from_its_server_and_the_rest_from_tf_keras():
    from tf1compat.migrate.driver import migrate_source

    source = ("import tensorflow as tf\n"
              "from tensorflow.keras.utils import multi_gpu_model, to_categorical\n"
              "schedule = tf.keras.experimental.LinearCosineDecay(0.1, 10)\n")
    migrated, findings = migrate_source(source, "towers.py", "tf1compat")
    line = migrated.splitlines()[[i for i, text in enumerate(migrated.splitlines())
                                  if "to_categorical" in text][0]]
    assert line == ("from tf_keras.api._v1.keras.utils import to_categorical; "
                    "from tf1compat.keras2.multi_gpu import multi_gpu_model"), migrated
    assert "tf_keras.src.optimizers.schedules.learning_rate_schedule.LinearCosineDecay(0.1, 10)" \
        in migrated, migrated
    said = [f.message for f in findings if f.rule == "tf-keras"]
    assert any("multi_gpu_model" in text and "tf_keras dropped" in text for text in said), said
