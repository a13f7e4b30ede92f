"""A migrated TF1 program prints NumPy scalars as NumPy 1 did; a library module is left alone."""

from libcst.codemod import CodemodTest

from tf1compat.migrate.rules.numpy1_printing import NumPy1PrintingRule


class NumPy1Printing(CodemodTest):
    TRANSFORM = NumPy1PrintingRule

    def test_a_graph_program_gets_numpy_1_printing_after_graph_mode(self):
        before = '''import numpy as np
import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
print(sess.run([cost, W]))
'''
        after = '''import numpy as np
import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
np.set_printoptions(legacy="1.25")  # scalars print as in NumPy 1
print(sess.run([cost, W]))
'''
        self.assertCodemod(before, after)

    def test_without_numpy_imported_the_program_imports_it(self):
        before = '''import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
print(result)
'''
        after = '''import tensorflow as tf
import numpy

tf.compat.v1.disable_v2_behavior()
numpy.set_printoptions(legacy="1.25")  # scalars print as in NumPy 1
print(result)
'''
        self.assertCodemod(before, after)

    def test_a_module_that_is_no_graph_program_or_chose_its_printing_is_left(self):
        library = '''import tensorflow as tf
def model(x):
    return tf.compat.v1.layers.dense(x, 2)
'''
        self.assertCodemod(library, library)
        silent = '''import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
sess.run(train_op)
'''
        self.assertCodemod(silent, silent)
        chosen = '''import numpy as np
import tensorflow as tf
tf.compat.v1.disable_v2_behavior()
np.set_printoptions(precision=3)
'''
        self.assertCodemod(chosen, chosen)


def test_a_migrated_program_prints_a_list_of_results_as_tf1_printed_it(tmp_path):
    from isolated import run_python
    from tf1compat.migrate.driver import migrate_source

    code = ("import tensorflow as tf\nW = tf.Variable(1.5)\nwith tf.Session() as s:\n"
            "    s.run(tf.global_variables_initializer())\n    print(s.run([W, W * 2]))\n")
    migrated, _ = migrate_source(code, str(tmp_path / "p.py"), "tf1compat")
    assert run_python(migrated).stdout.splitlines()[-1] == "[1.5, 3.0]"
