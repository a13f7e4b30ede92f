"""`migrate --to tf2`, rule by rule: TF1 source in, TF2 source out (no TensorFlow run)."""

import textwrap

import pytest

from tf1compat.migrate.driver import migrate_source_tf2
from tf1compat.migrate.tf2.pipeline import to_tf2
from tf1compat.migrate.tf2.translate import Unconvertible


def tf2(source: str) -> str:
    return to_tf2(textwrap.dedent(source))[0]


def test_placeholders_and_a_train_loop_become_one_tf_function_step():
    out = tf2("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        W = tf.Variable(tf.zeros([2, 1]))
        loss = tf.reduce_mean(tf.matmul(x, W))
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(3):
                _, value = sess.run([train, loss], feed_dict={x: data})
            print(sess.run(W))
        """)
    assert "optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)" in out
    # the placeholder's dtype and shape are the function's input signature: a value fed is
    # converted to float32 and must have two columns, as TF1's feed did
    assert "@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])\n" \
           "def train(x):\n    with tf.GradientTape() as tape:\n" \
           "        loss = tf.reduce_mean(tf.matmul(x, W))\n" in out
    assert "    variables = [W]\n    gradients = tape.gradient(loss, variables)\n" \
           "    optimizer.apply_gradients(zip(gradients, variables))\n    return loss\n" in out
    assert "    value = train(data).numpy()\n" in out
    assert "print(W.numpy())" in out
    assert "placeholder" not in out and "Session" not in out and "initializer" not in out


def test_tf_layers_dense_becomes_a_keras_layer_named_as_tf1_named_it():
    out = tf2("""\
        import tensorflow as tf
        inputs = tf.placeholder(tf.float32, [None, 4])
        hidden = tf.layers.dense(inputs, 8, activation=tf.nn.relu,
                                 kernel_initializer=tf.glorot_uniform_initializer(seed=1))
        logits = tf.layers.dense(hidden, 1)
        sess = tf.Session()
        print(sess.run(logits, {inputs: data}))
        """)
    assert 'dense = tf.keras.layers.Dense(8, activation=tf.nn.relu, kernel_initializer=' \
           'tf.keras.initializers.GlorotUniform(seed=1), name="dense")' in out
    assert 'dense_1 = tf.keras.layers.Dense(1, name="dense_1")' in out
    assert "print(logits(data).numpy())" in out


def test_adam_keeps_tf1_epsilon_and_rmsprop_is_left_with_the_reason():
    adam = tf2("""\
        import tensorflow as tf
        v = tf.Variable(1.0)
        loss = tf.square(v)
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        with tf.Session() as sess:
            sess.run(train)
        """)
    assert "tf.keras.optimizers.Adam(learning_rate=0.05, epsilon=1e-08)" in adam
    with pytest.raises(Unconvertible, match="RMSProp starts its mean square at 1.0"):
        tf2("""\
            import tensorflow as tf
            v = tf.Variable(1.0)
            loss = tf.square(v)
            train = tf.train.RMSPropOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(train)
            """)


def test_a_fetch_of_one_variable_expression_is_written_in_place_of_the_run():
    out = tf2("""\
        import tensorflow as tf
        counter = tf.Variable(0, name="counter")
        increment = tf.assign_add(counter, 5)
        with tf.Session() as sess:
            sess.run(increment)
            print(sess.run(counter))
        """)
    assert "counter.assign_add(5)\nprint(counter.numpy())" in out


def test_app_flags_and_logging_go_to_absl():
    out = tf2("""\
        import tensorflow as tf
        flags = tf.app.flags
        flags.DEFINE_integer("steps", 2, "how many")
        FLAGS = tf.app.flags.FLAGS
        def main(_):
            tf.logging.info("steps %d", FLAGS.steps)
        if __name__ == "__main__":
            tf.app.run()
        """)
    assert "from absl import app, flags, logging" in out
    assert "flags = " not in out and "FLAGS = flags.FLAGS" in out
    assert 'logging.info("steps %d", FLAGS.steps)' in out and "app.run(main)" in out


def test_config_proto_goes_to_modern_configure():
    out = tf2("""\
        import tensorflow as tf
        config = tf.ConfigProto(intra_op_parallelism_threads=2)
        x = tf.constant(1.0)
        with tf.Session(config=config) as sess:
            print(sess.run(x))
        """)
    assert "modern.configure(intra_op_threads=2)" in out and "print(x.numpy())" in out


@pytest.mark.parametrize("source, line, reason", [
    ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\ny = x * 2\n"
     "with tf.Session() as sess:\n    print(y.shape, sess.run(y, {x: 1.0}))\n", 5,
     "tensor y (line 3) is used outside Session.run"),
    ("import tensorflow as tf\nv = tf.Variable(1.0)\nsaver = tf.train.Saver()\n"
     "with tf.Session() as sess:\n    saver.save(sess, 'model.ckpt')\n", 3,
     "tf.train.Saver has no --to tf2 rule"),
    ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
     "with tf.Session() as sess:\n    print(sess.run(x * 2))\n", 4,
     "Session.run of an expression of fed or graph tensors"),
])
def test_what_cannot_be_converted_falls_back_with_file_line_and_reason(source, line, reason):
    text, findings, converted = migrate_source_tf2(source, "train.py")
    assert not converted
    assert "tf.compat.v1" in text  # the --to tf1compat output, which still runs
    [finding] = [f for f in findings if f.rule == "tf2"]
    assert finding.line == line and reason in finding.message


def test_variables_keep_tf1_names_and_start_from_a_tf1_checkpoint_where_tf1_initialized():
    out = tf2("""\
        import tensorflow as tf
        a = tf.Variable(tf.zeros([2]))
        b = tf.Variable(tf.ones([2]))
        w = tf.Variable(1.0, name="w")
        w2 = tf.Variable(2.0, name="w")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(a), sess.run(w2))
        """)
    # TF1's names (Variable, Variable_1, w, w_1), which its checkpoints hold
    assert 'a = tf.Variable(tf.zeros([2]), name="Variable")' in out
    assert 'b = tf.Variable(tf.ones([2]), name="Variable_1")' in out
    assert 'w = tf.Variable(1.0, name="w")' in out and 'w2 = tf.Variable(2.0, name="w_1")' in out
    assert out.startswith("import tensorflow as tf\nfrom modern import tf1_checkpoint\n")
    assert "# TF1 initialized the variables here; $TF1_INIT_CHECKPOINT, when set, gives their " \
           "values\ntf1_checkpoint.load_initial([a, b, w, w2])\nprint(a.numpy(), w2.numpy())" \
           in out
    without = tf2("""\
        import tensorflow as tf
        x = tf.constant(1.0)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(x))
        """)
    assert "tf1_checkpoint" not in without  # nothing to load


def test_tf1_eager_api_becomes_plain_tf2():
    out = tf2("""\
        import tensorflow as tf
        tf.enable_eager_execution()
        tfe = tf.contrib.eager
        batches = tfe.Iterator(tf.data.Dataset.from_tensor_slices([1.0, 2.0]).repeat())
        w = tfe.Variable(0.5, name="w")
        def loss_fn(x):
            return tf.square(w * x)
        optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.1)
        grads_fn = tfe.implicit_value_and_gradients(loss_fn)
        mean = tfe.metrics.Mean()
        loss, grads = grads_fn(batches.next())
        optimizer.apply_gradients(grads)
        """)
    assert "enable_eager_execution" not in out and "contrib" not in out and "tfe" not in out
    assert "batches = iter(tf.data.Dataset.from_tensor_slices([1.0, 2.0]).repeat())" in out
    assert 'w = tf.Variable(0.5, name="w")' in out
    assert "optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)\n\n\ndef grads_fn(*args, " \
           "**kwargs):\n" in out
    assert "    with tf.GradientTape() as tape:\n        value = loss_fn(*args, **kwargs)\n" \
           "    variables = tape.watched_variables()\n" \
           "    pairs = list(zip(tape.gradient(value, variables), variables))\n" \
           "    return value, pairs\n\n\nmean = tf.keras.metrics.Mean()\n" in out
    assert "loss, grads = grads_fn(next(batches))" in out
    with pytest.raises(Unconvertible, match="tf.contrib.eager.Saver has no --to tf2 rule") \
            as error:
        tf2("""\
            import tensorflow as tf
            tf.enable_eager_execution()
            saver = tf.contrib.eager.Saver([])
            """)
    assert error.value.line == 3


def test_the_tutorials_mnist_reader_import_goes_to_modern():
    out = tf2("""\
        import tensorflow as tf
        from tensorflow.examples.tutorials.mnist import input_data as reader
        mnist = reader.read_data_sets("data", one_hot=True)
        """)
    assert "from modern import mnist_reader as reader\n" in out
    assert 'mnist = reader.read_data_sets("data", one_hot=True)' in out
    text, findings, converted = migrate_source_tf2(
        "import tensorflow as tf\nfrom tensorflow.examples.tutorials.mnist import mnist\n",
        "model.py")
    assert not converted  # the tutorial's graph model has no TF2 form
    assert "from tensorflow.examples.tutorials.mnist import ...: no TF2 module of that " \
           "name" in [f for f in findings if f.rule == "tf2"][0].message


def test_a_chosen_optimizer_and_a_loss_written_in_minimize():
    out = tf2("""\
        import tensorflow as tf
        def main(momentum):
            lr = tf.constant(0.25)
            value = tf.Variable(1.0)
            opt = tf.train.MomentumOptimizer(lr, 0.5) if momentum \\
                else tf.train.GradientDescentOptimizer(lr)
            train = opt.minimize(tf.square(value))
            with tf.Session() as sess:
                sess.run(train)
        """)
    # the rate is an eager constant, so Keras' momentum SGD takes the same steps as TF1's
    assert "opt = tf.keras.optimizers.SGD(learning_rate=float(lr), momentum=0.5) if " \
           "momentum \\\n        else tf.keras.optimizers.SGD(learning_rate=float(lr))" in out
    assert "    def train():\n        with tf.GradientTape() as tape:\n" \
           "            loss = tf.square(value)\n" in out
    with pytest.raises(Unconvertible, match="MomentumOptimizer with a learning rate that is "
                                            "not a constant"):
        tf2("""\
            import tensorflow as tf
            x = tf.placeholder(tf.float32, [])
            v = tf.Variable(1.0)
            train = tf.train.MomentumOptimizer(x * 0.1, 0.5).minimize(tf.square(v))
            with tf.Session() as sess:
                sess.run(train, {x: 1.0})
            """)


def test_a_flag_read_before_app_run_parses_the_command_line_first():
    out = tf2("""\
        import tensorflow as tf
        tf.flags.DEFINE_integer("steps", 2, "steps")
        FLAGS = tf.flags.FLAGS
        print(FLAGS.steps)
        def main(argv):
            print(FLAGS.steps)
        if __name__ == "__main__":
            tf.app.run(main)
        """)
    assert "import sys\nfrom absl import app, flags\n" in out
    assert "FLAGS = flags.FLAGS\n# TF1 parsed the flags on their first read; absl parses " \
           "them here\nFLAGS(sys.argv, known_only=True)\nprint(FLAGS.steps)\n" in out
    later = tf2("""\
        import tensorflow as tf
        tf.flags.DEFINE_integer("steps", 2, "steps")
        FLAGS = tf.flags.FLAGS
        def main(argv):
            print(FLAGS.steps)
        tf.app.run(main)
        """)
    assert "known_only" not in later and "import sys" not in later


def test_get_variable_under_a_variable_scope_becomes_a_variable_with_the_tf1_name():
    out = tf2("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        with tf.variable_scope("linear"):
            w = tf.get_variable("weights", [3, 1], initializer=tf.zeros_initializer())
            b = tf.get_variable("bias", [1], trainable=False)
            y = tf.matmul(x, w) + b
        c = tf.get_variable("c", initializer=tf.constant([1.0, 2.0]))
        with tf.Session() as sess:
            print(sess.run(y, {x: data}), sess.run(c))
        """)
    assert 'w = tf.Variable(tf.keras.initializers.Zeros()([3, 1]), name="linear/weights")\n' \
           'b = tf.Variable(tf.keras.initializers.GlorotUniform()([1]), trainable=False, ' \
           'name="linear/bias")\n' in out
    assert 'c = tf.Variable(tf.constant([1.0, 2.0]), name="c")\n' in out
    assert "variable_scope" not in out and "print(y(data).numpy(), c.numpy())" in out
    for body, reason in [
        ('with tf.variable_scope("s"):\n    h = tf.layers.dense(x, 2)\n',
         "a tf.layers layer inside tf.variable_scope"),
        ('v = tf.get_variable("v", [1])\nu = tf.get_variable("v", [1])\n',
         r"tf.get_variable\('v'\) a second time"),
    ]:
        with pytest.raises(Unconvertible, match=reason):
            tf2("import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n" + body
                + "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n")
