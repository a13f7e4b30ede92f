"""`migrate --to tf2`, rule by rule, for TF1 names with TF 2 homes: `tf.layers` convolutions,
pools and flatten, `tf.losses` cross-entropies, `tf.gfile`, HParams, names kept as TF 2's
with TF 1.15's arguments, and the fed values' input signature."""

import textwrap

import pytest

from tf1compat.migrate.tf2.pipeline import to_tf2
from tf1compat.migrate.tf2.translate import Unconvertible


def tf2(source: str) -> str:
    return to_tf2(textwrap.dedent(source))[0]


def test_gfile_names_go_to_tf_io_gfile_with_tf_upgrade_v2s_keyword_renames(tmp_path):
    (tmp_path / "a.txt").write_text("one two")
    out = tf2(f"""\
        import os
        import tensorflow as tf
        folder = {str(tmp_path)!r}
        files = sorted(tf.gfile.Glob(os.path.join(folder, "*.txt")))
        present = tf.gfile.Exists(filename=folder)
        with tf.gfile.GFile(files[0]) as handle:
            words = handle.read().split()
        """)
    assert "tf.io.gfile.glob(os.path.join(folder" in out
    assert "tf.io.gfile.exists(path=folder)" in out  # TF1's `filename=` is TF 2's `path=`
    assert "with tf.io.gfile.GFile(files[0]) as handle:" in out
    assert "gfile.Glob" not in out and "compat" not in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    assert namespace["present"] is True and namespace["words"] == ["one", "two"]


def test_hparams_goes_to_modern_the_same_class_tf1compat_serves():
    out = tf2("""\
        import tensorflow as tf
        hparams = tf.contrib.training.HParams(learning_rate=0.1, hidden=[8])
        hparams.parse("learning_rate=0.3,hidden=[6,4]")
        """)
    assert "import modern\n" in out
    assert "hparams = modern.HParams(learning_rate=0.1, hidden=[8])" in out
    assert "contrib" not in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    from tf1compat.contrib.training import HParams

    assert type(namespace["hparams"]) is HParams
    assert namespace["hparams"].values() == {"learning_rate": 0.3, "hidden": [6, 4]}


def test_tf_layers_convolutions_pools_and_flatten_become_keras_layers_named_as_tf1():
    out = tf2("""\
        import tensorflow as tf
        images = tf.placeholder(tf.float32, [None, 6, 6, 1])
        labels = tf.placeholder(tf.int64, [None])
        a = tf.layers.conv2d(images, 4, [3, 3], padding="same", activation=tf.nn.relu)
        b = tf.layers.conv2d(a, 2, 3, (1, 1), "valid")
        c = tf.layers.average_pooling2d(b, 2, 2)
        d = tf.layers.flatten(c)
        logits = tf.layers.dense(d, 2, name="out")
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        _, value = sess.run([train, loss], {images: x, labels: y})
        """)
    assert 'conv2d = tf.keras.layers.Conv2D(4, [3, 3], padding="same", activation=tf.nn.relu, ' \
           'name="conv2d")' in out
    assert 'conv2d_1 = tf.keras.layers.Conv2D(2, 3, strides=(1, 1), padding="valid", ' \
           'name="conv2d_1")' in out
    assert 'average_pooling2d = tf.keras.layers.AveragePooling2D(2, strides=2, ' \
           'name="average_pooling2d")' in out
    assert 'flatten = tf.keras.layers.Flatten(name="flatten")' in out
    assert "loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(" \
           "labels=labels, logits=logits))" in out
    # the layers that hold no variables are neither trained nor loaded
    assert "variables = [*conv2d.trainable_variables, *conv2d_1.trainable_variables, " \
           "*out.trainable_variables]" in out
    assert "load_initial([conv2d, conv2d_1, out])" in out


@pytest.mark.parametrize("source, reason", [
    ("a = tf.layers.conv2d(images, 4, 3, kernel_constraint=c)",
     "tf.layers.conv2d keyword(s) without a Keras Conv2D counterpart here: kernel_constraint"),
    ("loss = tf.losses.softmax_cross_entropy(y, logits, label_smoothing=0.1)",
     "tf.losses.softmax_cross_entropy with weights, label smoothing"),
])
def test_tf_layers_and_losses_arguments_without_a_keras_form_are_left(source, reason):
    code = textwrap.dedent(f"""\
        import tensorflow as tf
        images = tf.placeholder(tf.float32, [None, 6, 6, 1])
        y = tf.placeholder(tf.float32, [None, 2])
        logits = tf.layers.dense(tf.layers.flatten(images), 2)
        {source}
        sess = tf.Session()
        print(sess.run(logits, {{images: x}}))
        """)
    with pytest.raises(Unconvertible) as raised:
        to_tf2(code)
    assert reason in raised.value.reason


def test_fed_values_take_the_placeholders_dtype_as_tf1s_feed_did():
    """NumPy's float64 data fed to a float32 placeholder: TF1 converted it; TF 2 takes the
    placeholder's spec as the function's input signature and converts it the same way."""
    out = tf2("""\
        import numpy as np
        import tensorflow as tf
        x_data = np.linspace(-1, 1, 4)[:, np.newaxis]  # float64
        x = tf.placeholder(tf.float32, x_data.shape)
        w = tf.Variable(tf.ones([1, 1]))
        y = tf.matmul(x, w)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        value = sess.run(y, {x: x_data})
        """)
    assert "@tf.function(input_signature=[tf.TensorSpec(x_data.shape, tf.float32)])" in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    assert namespace["value"].dtype.name == "float32"
    assert namespace["value"].ravel().tolist() == pytest.approx([-1.0, -1 / 3, 1 / 3, 1.0])


def test_tf2_names_get_their_arguments_as_tf2_takes_them():
    """`tf.shape(x, "s")`: TF 2's second parameter is `out_type`; `keep_dims=` is TF 2's
    `keepdims=`; `tf.sin`, the same function in TF 2.21's TF1 and TF 2 APIs with TF 1.15's
    parameters, passes as it is; `tf.nn.top_k`, also one object there, is TF 1.15's no more
    (`index_type` stands where `name` was) and is not taken as it is."""
    out = tf2("""\
        import tensorflow as tf
        x = tf.constant([[1.0, 2.0]])
        s = tf.shape(x, "shape_of_x")
        r = tf.reduce_sum(x, 1, keep_dims=True)
        t = tf.sin(x)
        """)
    assert 's = tf.shape(x, name="shape_of_x")' in out
    assert "r = tf.reduce_sum(x, 1, keepdims=True)" in out
    assert "t = tf.sin(x)" in out
    from tf1compat.migrate.tf2 import api

    assert api.same_object_in_tf2("sin") and not api.same_object_in_tf2("nn.top_k")
    assert not api.same_object_in_tf2("group")  # orders a TF1 graph: not a value
