"""`migrate --to tf2`, rule by rule, for graph code built in a `for` loop (a list of Keras
layers made by the same loop, the loop replayed in the function), optimizers picked from a
table, feed dicts kept in a name, and variables listed before any run."""

import textwrap

import numpy as np
import pytest

from modern import tf1_checkpoint
from tf1compat.migrate.tf2.pipeline import to_tf2
from tf1compat.migrate.tf2.translate import Unconvertible

LOOP_MODEL = """\
    import numpy as np
    import tensorflow as tf
    sizes = [5, 3]
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.float32, [None, 1])
    net = x
    for i, width in enumerate(sizes):
        net = tf.layers.dense(net, width, activation=tf.nn.tanh,
                              kernel_initializer=tf.zeros_initializer(), name="hidden%d" % i)
    prediction = tf.layers.dense(net, 1, name="out")
    loss = tf.losses.mean_squared_error(y, prediction)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    names = [v.op.name for v in tf.trainable_variables()]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: np.ones([2, 4], np.float32), y: np.zeros([2, 1], np.float32)}
        for step in range(3):
            _, value = sess.run([train, loss], feed)
    """


def tf2(source: str) -> str:
    return to_tf2(textwrap.dedent(source))[0]


def test_layers_made_in_a_loop_become_a_list_made_by_the_same_loop():
    out = tf2(LOOP_MODEL)
    assert "dense_layers = []\nfor i, width in enumerate(sizes):\n    dense_layers.append(" \
           "tf.keras.layers.Dense(width, activation=tf.nn.tanh, kernel_initializer=" \
           "tf.keras.initializers.Zeros(), name=\"hidden%d\" % i))" in out
    # the function replays the loop, each pass applying its own layer
    assert "        net = x\n        for dense in dense_layers:\n            net = dense(net)\n" \
           "        prediction = out(net)\n" in out
    assert "[*[variable for layer in dense_layers for variable in layer.trainable_variables]" \
           ", *out.trainable_variables]" in out
    assert "tf1_checkpoint.load_initial([*dense_layers, out])" in out
    assert "compat" not in out and "placeholder" not in out and "Session" not in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    # listed before any run: a trace built the layers, named as TF1 named their variables
    assert namespace["names"] == ["hidden0/kernel", "hidden0/bias", "hidden1/kernel",
                                  "hidden1/bias", "out/kernel", "out/bias"]
    assert "get_concrete_function()" in out
    assert [layer.kernel.shape for layer in namespace["dense_layers"]] == [(4, 5), (5, 3)]
    assert np.isfinite(namespace["value"])


def test_a_loop_body_that_reads_the_loop_variables_zips_them_with_the_layers():
    out = tf2("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        net = x
        for i, scale in enumerate([1.0, 0.5]):
            hidden = tf.layers.dense(net, 2, kernel_initializer=tf.ones_initializer(),
                                     name="layer_%d" % i)
            net = hidden * scale
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(net, {x: [[1.0, 2.0]]})
        """)
    assert "    for (i, scale), dense in zip(enumerate([1.0, 0.5]), dense_layers):\n" \
           "        hidden = dense(net)\n        net = hidden * scale\n" in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    # ones kernels, zero biases: [1, 2] -> [3, 3] * 1.0 -> [6, 6] * 0.5
    np.testing.assert_allclose(namespace["value"], [[3.0, 3.0]])


@pytest.mark.parametrize("body, reason", [
    ('    net = tf.layers.dense(net, 2)\n', "in a loop without a name"),
    ('    net = tf.layers.dense(net, 2, name="same")\n', "with one literal name"),
    ('    w = tf.Variable(tf.zeros([2, 2]))\n    net = tf.matmul(net, w)\n',
     "tf.Variable in a loop"),
    ('    net = net * 2\n    print(net)\n', "statements other than assignments"),
    # a Python value rebound from itself would be computed again at each trace
    ('    scale = scale * 2\n    net = net * scale\n', "computed from itself"),
])
def test_graph_code_in_a_loop_that_has_no_tf2_form_is_reported(body, reason):
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\nnet = x\n"
              f"scale = 1.0\nfor i in range(2):\n{body}"
              "with tf.Session() as sess:\n    print(sess.run(net, {x: [[1.0, 2.0]]}))\n")
    with pytest.raises(Unconvertible, match=reason) as raised:
        to_tf2(source)
    assert raised.value.line >= 4


def test_python_values_of_a_loop_stay_in_the_loop_that_reads_them():
    out = tf2("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        net = x
        for i in range(2):
            name = "fc%d" % i
            net = tf.layers.dense(net, 2, name=name)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(net, {x: [[1.0, 2.0]]})
        """)
    making, function = out.split("@tf.function", 1)
    assert '    name = "fc%d" % i\n    dense_layers.append(tf.keras.layers.Dense(2, name=name))' \
        in making
    assert "name = " not in function.split("return", 1)[0]  # no TF code reads it there
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    assert [layer.name for layer in namespace["dense_layers"]] == ["fc0", "fc1"]


def test_a_list_two_loops_fill_with_tensors_is_refused():
    source = ("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nparts = []\n"
              "for i in range(2):\n    parts.append(x * i)\n"
              "for i in range(2):\n    parts.append(x + i)\n"
              "total = tf.add_n(parts)\n"
              "with tf.Session() as sess:\n    print(sess.run(total, {x: [1.0]}))\n")
    with pytest.raises(Unconvertible, match="filled with tensors by two loops") as raised:
        to_tf2(source)
    assert raised.value.line == 7


def test_a_table_of_tf1_optimizers_becomes_a_table_of_keras_makers():
    out = tf2("""\
        import tensorflow as tf
        v = tf.Variable(3.0, name="v")
        loss = tf.square(v)
        choice = "adam"
        optimizers = {"sgd": tf.train.GradientDescentOptimizer,
                      "momentum": lambda rate: tf.train.MomentumOptimizer(rate, 0.9),
                      "adam": tf.train.AdamOptimizer}
        train = optimizers[choice](0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            value = sess.run(v)
        """)
    assert '"sgd": tf.keras.optimizers.SGD,' in out
    assert '"momentum": lambda rate: tf.keras.optimizers.SGD(learning_rate=rate, ' \
           'momentum=0.9),' in out
    # TF1's Adam epsilon (1e-8) and default rate kept by the maker
    assert '"adam": lambda learning_rate=0.001: tf.keras.optimizers.Adam(' \
           'learning_rate=learning_rate, epsilon=1e-08)}' in out
    assert "optimizer = optimizers[choice](0.1)" in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    # one Adam step moves v by the learning rate (the first step's update is lr * sign)
    assert namespace["value"] == pytest.approx(2.9, abs=1e-5)


def test_optimizers_from_a_table_refuse_what_keras_would_compute_otherwise():
    named = ("import tensorflow as tf\nv = tf.Variable(1.0)\nloss = tf.square(v)\n"
             "table = {'m': tf.train.MomentumOptimizer}\n"
             "train = table['m'](0.1).minimize(loss)\n"
             "with tf.Session() as sess:\n    sess.run(train)\n")
    with pytest.raises(Unconvertible, match="momentum is a required argument"):
        to_tf2(named)
    decayed = ("import tensorflow as tf\nv = tf.Variable(1.0)\nloss = tf.square(v)\n"
               "rate = tf.Variable(0.1, trainable=False)\n"
               "table = {'m': lambda r: tf.train.MomentumOptimizer(r, 0.9)}\n"
               "train = table['m'](rate).minimize(loss)\n"
               "with tf.Session() as sess:\n    sess.run(train)\n")
    with pytest.raises(Unconvertible, match="learning rate that is not a constant"):
        to_tf2(decayed)


def test_a_feed_dict_kept_in_a_name_passes_each_value_by_its_placeholder():
    out = tf2("""\
        import tensorflow as tf
        a = tf.placeholder(tf.float32, [])
        b = tf.placeholder(tf.float32, [])
        total = a + b
        data = 2.0
        feed = {a: data, b: 3.0}
        data = 100.0
        with tf.Session() as sess:
            value = sess.run(total, feed)
        """)
    assert 'feed = {"a": data, "b": 3.0}' in out
    assert 'value = total(feed["a"], feed["b"]).numpy()' in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    assert namespace["value"] == 5.0  # the values the dict was made with, as TF1 fed them


def test_variable_attributes_tf1_code_reads_have_their_tf2_form():
    out = tf2("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        out = tf.layers.dense(x, 2, name="logits")
        w = tf.Variable(tf.zeros([2]), name="scope/w")
        total = tf.reduce_sum(out) + tf.reduce_sum(w)
        listed = [(v.op.name, v.name, v.shape.as_list(), v.get_shape().as_list())
                  for v in tf.trainable_variables()]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            value = sess.run(total, {x: [[1.0, 2.0, 3.0]]})
        """)
    assert "tf1_checkpoint.tf1_name(v)" in out and "list(v.shape)" in out
    namespace = {}
    exec(compile(out, "converted.py", "exec"), namespace)  # noqa: S102
    assert namespace["listed"] == [("logits/kernel", "logits/kernel:0", [3, 2], [3, 2]),
                                   ("logits/bias", "logits/bias:0", [2], [2]),
                                   ("scope/w", "scope/w:0", [2], [2])]


def test_tf1_name_is_a_keras_weights_path_or_a_variables_name_without_its_output():
    import tensorflow as tf

    layer = tf.keras.layers.Dense(2, name="dense_7")
    layer.build((None, 3))
    assert [tf1_checkpoint.tf1_name(v) for v in layer.weights] == ["dense_7/kernel",
                                                                    "dense_7/bias"]
    assert tf1_checkpoint.tf1_name(tf.Variable(1.0, name="scope/w")) == "scope/w"
