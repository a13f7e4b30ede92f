"""`--to tf2` output gets the rules of the libraries beside TensorFlow, as `--to tf1compat` does."""

from tf1compat.migrate.driver import migrate_source_tf2


def test_a_helper_module_without_tensorflow_gets_numpy_2s_names():
    code = "import numpy as np\nlabels = np.zeros(3).astype(np.int)\nx = np.float(2)\n"
    text, findings, converted = migrate_source_tf2(code, "helper.py")
    assert converted
    assert text == "import numpy as np\nlabels = np.zeros(3).astype(int)\nx = float(2)\n"
    assert {f.rule for f in findings} == {"numpy1"}


def test_a_converted_tf2_program_gets_numpy_2s_names_too():
    code = ("import numpy as np\nimport tensorflow as tf\n"
            "w = tf.Variable(np.zeros(2, dtype=np.float))\n"
            "with tf.Session() as sess:\n"
            "    sess.run(tf.global_variables_initializer())\n"
            "    print(sess.run(w))\n")
    text, _, converted = migrate_source_tf2(code, "train.py")
    assert converted, text
    assert "np.float)" not in text and "dtype=float" in text
