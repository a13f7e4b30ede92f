"""TF1's tf.keras -> tf_keras's TF1 API, as before/after strings, and what TF 2.21 then gives."""

import subprocess
import sys

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from isolated import python_env
from tf1compat.migrate.driver import migrate_source
from tf1compat.migrate.rules.contrib import NEEDED_IMPORTS
from tf1compat.migrate.rules.tf_keras import TfKerasRule, keras_home


class TfKeras(CodemodTest):
    TRANSFORM = TfKerasRule

    def test_chains_under_any_alias_and_compat_v1_become_the_tf1_api(self):
        before = ("import tensorflow as tfx\n"
                  "model = tfx.keras.Sequential([tfx.compat.v1.keras.layers.Dense(2)])\n"
                  "opt = tfx.keras.optimizers.SGD(lr=0.1)\n"
                  "tfx.keras.backend.set_session(session)\n")
        # TF 1.15's Sequential had predict_classes, tf_keras's has not: tf1compat's Keras 2 has
        after = ("import tensorflow as tfx\n"
                 "model = tf1compat.keras2.models.Sequential("
                 "[tf_keras.api._v1.keras.layers.Dense(2)])\n"
                 "opt = tf_keras.api._v1.keras.optimizers.SGD(lr=0.1)\n"
                 "tf_keras.api._v1.keras.backend.set_session(session)\n")
        self.assertCodemod(before, after)

    def test_tf115s_tf2_api_becomes_tf_keras_itself(self):
        before = "import tensorflow as tf\nopt = tf.compat.v2.keras.optimizers.SGD\n"
        after = "import tensorflow as tf\nopt = tf_keras.optimizers.SGD\n"
        self.assertCodemod(before, after)

    def test_imports_of_tensorflow_keras_come_from_the_tf1_api(self):
        before = ("from tensorflow.keras.layers import Dense, Conv2D as C\n"
                  "from tensorflow.compat.v1.keras import backend as K\n"
                  "import tensorflow.keras.optimizers as opts\n"
                  "from tensorflow import keras\n"
                  "from tensorflow.python.keras.layers import Dense as D\n")
        after = ("from tf_keras.api._v1.keras.layers import Dense, Conv2D as C\n"
                 "from tf_keras.api._v1.keras import backend as K\n"
                 "import tf_keras.api._v1.keras.optimizers as opts\n"
                 "from tf_keras.api._v1 import keras\n"
                 "from tensorflow.python.keras.layers import Dense as D\n")
        self.assertCodemod(before, after)

    def test_keras_imported_beside_other_names_moves_on_the_same_line(self):
        before = "from tensorflow import keras as k, estimator\nx = 1\n"
        after = "from tensorflow import estimator; from tf_keras.api._v1 import keras as k\nx = 1\n"
        self.assertCodemod(before, after)

    def test_other_names_and_other_modules_stay(self):
        code = ("import tensorflow as tf\nimport keras\n"
                "x = tf.layers.dense\ny = keras.layers.Dense\nz = tf.keras_thing\n")
        self.assertCodemod(code, code)


def test_the_modules_a_rewritten_chain_needs_are_imported_after_tf_upgrade_v2():
    context = CodemodContext()
    TfKerasRule(context).transform_module(cst.parse_module(
        "import tensorflow as tf\na = tf.keras.Model\nb = tf.compat.v2.keras.Model\n"))
    assert context.scratch[NEEDED_IMPORTS] == ["tf_keras.api._v1.keras", "tf_keras"]
    migrated, _ = migrate_source("import tensorflow as tf\nopt = tf.keras.optimizers.SGD\n",
                                 "s.py", "tf1compat")
    # tf_upgrade_v2 renames tf.keras.optimizers.SGD for Keras 3 (.legacy.SGD): not here
    assert "import tf_keras.api._v1.keras\n" in migrated
    assert "opt = tf_keras.api._v1.keras.optimizers.SGD\n" in migrated


def test_keras_home_reads_only_tf1s_keras_packages():
    assert keras_home("keras") == "tf_keras.api._v1.keras"
    assert keras_home("compat.v1.keras.backend") == "tf_keras.api._v1.keras.backend"
    assert keras_home("compat.v2.keras.layers.Dense") == "tf_keras.layers.Dense"
    assert keras_home("keras_utils") is None and keras_home("layers.dense") is None


def test_a_migrated_script_gets_keras_2s_names_under_plain_python():
    """What failed on Keras 3 (set_session, optimizers' decay, v1 initializers' dtype) works."""
    source = ("import tensorflow as tf\n"
              "from tensorflow.keras import backend as K\n"
              "session = tf.Session()\n"
              "K.set_session(session)\n"
              "opt = tf.keras.optimizers.SGD(lr=0.5, decay=0.1)\n"
              "init = tf.keras.initializers.Ones(dtype=tf.float32)\n"
              "x = tf.placeholder(tf.float32, [None, 3])\n"
              "y = tf.keras.layers.Dense(2, kernel_initializer=init)(x)\n"
              "session.run(tf.global_variables_initializer())\n"
              "print(K.get_session() is session, type(opt).__module__.split('.')[0],\n"
              "      session.run(y, {x: [[1.0, 2.0, 3.0]]}).tolist())\n")
    migrated, _ = migrate_source(source, "s.py", "tf1compat")
    env = {key: value for key, value in python_env().items() if key != "TF_USE_LEGACY_KERAS"}
    result = subprocess.run([sys.executable, "-c", migrated], capture_output=True, text=True,
                            env=env, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    same, module, output = result.stdout.strip().splitlines()[-1].split(" ", 2)
    assert (same, module) == ("True", "tf_keras"), result.stdout
    assert output == "[[6.0, 6.0]]", result.stdout
