"""`migrate --to tf2` on standalone Keras 2 code: Keras 3 where it has the same, else the
--to tf1compat output (Keras 2 on tf_keras) with the line and the reason."""

import textwrap

import pytest

from tf1compat.migrate.driver import migrate_source_tf2
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.tf2.keras3 import keras2_to_keras3
from tf1compat.migrate.tf2.translate import Unconvertible


def test_keras_2_modules_and_arguments_become_keras_3_s():
    before = textwrap.dedent("""\
        import keras
        from keras.models import Sequential
        from keras.layers.convolutional import Conv3D
        from keras.layers import Dense, merge  # layers
        from keras.utils import np_utils
        from keras.optimizers import SGD
        from keras.callbacks import ModelCheckpoint
        m = Sequential([Dense(2), merge.Add()])
        m.compile(optimizer=SGD(lr=0.1, momentum=0.9), loss="mse")
        cb = ModelCheckpoint("x.keras", period=1, save_best_only=True)
        y = np_utils.to_categorical([1, 0]), keras.layers.Dense(3)
        """)
    after = textwrap.dedent("""\
        import keras
        from keras.models import Sequential
        from keras.layers import Conv3D
        from keras.layers import Dense  # layers
        import keras.layers as merge
        import keras.utils as np_utils
        from keras.optimizers import SGD
        from keras.callbacks import ModelCheckpoint
        m = Sequential([Dense(2), merge.Add()])
        m.compile(optimizer=SGD(learning_rate=0.1, momentum=0.9), loss="mse")
        cb = ModelCheckpoint("x.keras", save_best_only=True)
        y = np_utils.to_categorical([1, 0]), keras.layers.Dense(3)
        """)
    assert keras2_to_keras3(before) == after
    namespace = {}
    exec(compile(after, "after.py", "exec"), namespace)  # noqa: S102 - runs on Keras 3
    assert namespace["y"][0].tolist() == [[0.0, 1.0], [1.0, 0.0]]


@pytest.mark.parametrize("line, reason", [
    ("p = model.predict_classes(x)", "no predict_classes"),
    ("cb = ModelCheckpoint('w.h5', period=5)", "not every N epochs"),
    ("o = SGD(lr=0.1, decay=1e-6)", "no decay"),
    ("s = K.get_session()", "Keras 3 has no keras.backend.get_session"),
    ("h = model.fit_generator(gen, steps_per_epoch=3)", "no fit_generator"),
])
def test_keras_2_calls_without_a_keras_3_equal_fall_back_naming_the_line(line, reason):
    code = ("from keras import backend as K\nfrom keras.optimizers import SGD\n"
            "from keras.callbacks import ModelCheckpoint\nmodel = x = gen = None\n" + line + "\n")
    with pytest.raises(Unconvertible, match=reason) as raised:
        keras2_to_keras3(code)
    assert raised.value.line == 5
    text, findings, converted = migrate_source_tf2(code, "train.py")
    assert not converted and "tf_keras" in text  # the --to tf1compat output: Keras 2
    assert any(f.kind is Kind.NOT_CONVERTED and f.line == 5 for f in findings)


def test_files_without_standalone_keras_are_left():
    code = "import tensorflow as tf\nkeras = tf.keras\nx = keras.layers.Dense(2)\n"
    assert keras2_to_keras3(code) == code
