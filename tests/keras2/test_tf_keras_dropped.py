"""TF 1.15's tf.keras and Keras 2 names that tf_keras dropped, three ways: TF 1.15 (recorded,
with Keras 2.3.1 for the standalone script), `tf1compat run`, `migrate` then plain Python.

`Sequential.predict_classes`/`predict_proba`, the scikit-learn wrappers, `HDF5Matrix`,
`convert_all_kernels_in_model` and the linear cosine decay schedules are served by
tf1compat's Keras 2 (`tf1compat.keras2.dropped`); the three print the same numbers.
"""


import pytest

from isolated import run_cli
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
    after = reference.run_migrated(migrated, tmp_path, name)
    comparison = compare(expected, reference.printed(after))
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


def test_the_wrappers_are_estimators_scikit_learns_model_selection_takes():
    sklearn_model_selection = pytest.importorskip(
        "sklearn.model_selection", reason="scikit-learn is not installed (not a test dependency)")
    import numpy as np

    from tf1compat.keras2.models import Sequential
    from tf1compat.keras2.wrappers.scikit_learn import KerasClassifier, KerasRegressor

    def build(units=4, loss="sparse_categorical_crossentropy", outputs=2):
        import tf_keras

        model = Sequential([tf_keras.layers.Dense(units, activation="tanh", input_shape=(3,)),
                            tf_keras.layers.Dense(outputs, activation="softmax")])
        model.compile("sgd", loss, metrics=["accuracy"])
        return model

    x = np.random.RandomState(0).uniform(-1, 1, (12, 3)).astype("float32")
    y = (x[:, 0] > 0).astype("int64")
    scores = sklearn_model_selection.cross_val_score(
        KerasClassifier(build_fn=build, units=3, epochs=1, verbose=0), x, y, cv=2)
    assert scores.shape == (2,) and ((0 <= scores) & (scores <= 1)).all()
    search = sklearn_model_selection.GridSearchCV(
        KerasClassifier(build_fn=build, epochs=1, verbose=0), {"units": [2, 3]}, cv=2)
    assert search.fit(x, y).best_params_["units"] in (2, 3)
    from sklearn.base import is_classifier, is_regressor

    assert is_classifier(KerasClassifier(build_fn=build))
    assert is_regressor(KerasRegressor(build_fn=build))


def test_migrate_finds_dropped_names_on_every_spelling_a_script_reaches_them_by():
    from tf1compat.migrate.driver import migrate_source

    source = ("import tensorflow as tf\n"
              "from tensorflow import keras\n"
              "import tensorflow.keras.utils as U\n"
              "from tensorflow.python.keras.wrappers.scikit_learn import KerasRegressor\n"
              "from tensorflow.python.keras import models\n"
              "if True: from tensorflow.keras.utils import HDF5Matrix, multi_gpu_model\n"
              "a = keras.Sequential, keras.utils.HDF5Matrix, U.multi_gpu_model\n"
              "b = models.Sequential, KerasRegressor, HDF5Matrix, multi_gpu_model\n")
    migrated, findings = migrate_source(source, "spellings.py", "tf1compat")
    assert "if True: from tf1compat.keras2.io_utils import HDF5Matrix; " \
           "from tf1compat.keras2.multi_gpu import multi_gpu_model\n" in migrated, migrated
    assert "a = tf1compat.keras2.models.Sequential, tf1compat.keras2.io_utils.HDF5Matrix, " \
           "tf1compat.keras2.multi_gpu.multi_gpu_model\n" in migrated, migrated
    assert "b = tf1compat.keras2.models.Sequential, " \
           "tf1compat.keras2.wrappers.scikit_learn.KerasRegressor," in migrated, migrated
    assert not [f for f in findings if f.kind.value == "not converted"], findings
    namespace = {}
    imports = "\n".join(line for line in migrated.splitlines()
                        if line.startswith(("import tf1compat", "from tf1compat")))
    exec(compile(imports, "imports.py", "exec"), namespace)  # noqa: S102 - imports alone


def test_the_noisy_schedule_takes_tf115s_name_by_position():
    from tf1compat.keras2.schedules import NoisyLinearCosineDecay

    schedule = NoisyLinearCosineDecay(0.1, 10, 1.0, 0.55, 0.5, 0.0, 0.001, "noisy")
    assert schedule.name == "noisy" and schedule.seed is None
    assert NoisyLinearCosineDecay.from_config(schedule.get_config()).name == "noisy"
