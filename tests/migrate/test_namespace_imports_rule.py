"""Imports of TF 1.15's API namespaces as modules become the `tf.X` names every rule reads."""


from libcst.codemod import CodemodTest

from tf1compat.migrate.rules.namespace_imports import NamespaceImportsRule, is_namespace_module
from tf1compat.runner.served import TF1_NAMESPACES
from tf1compat.surface import reference


class NamespaceImports(CodemodTest):
    TRANSFORM = NamespaceImportsRule

    def test_a_name_imported_from_a_namespace_is_read_from_the_files_alias(self):
        before = '''import tensorflow as tf
from tensorflow.train import AdamOptimizer, Saver as S
from tensorflow.layers import dense  # the layer
opt = AdamOptimizer(0.1)
'''
        after = '''import tensorflow as tf
AdamOptimizer = tf.train.AdamOptimizer
S = tf.train.Saver
dense = tf.layers.dense
opt = AdamOptimizer(0.1)
'''
        self.assertCodemod(before, after)

    def test_a_namespace_bound_as_a_module_is_read_through_at_each_use(self):
        before = '''import tensorflow as tf
import tensorflow.nn.rnn_cell as rnn_cell
from tensorflow import layers as L, float32
from tensorflow.saved_model import signature_constants
cell = rnn_cell.LSTMCell(4)
y = L.dense(x, 2)
key = signature_constants.PREDICT_METHOD_NAME
'''
        after = '''import tensorflow as tf
from tensorflow import float32
cell = tf.nn.rnn_cell.LSTMCell(4)
y = tf.layers.dense(x, 2)
key = tf.saved_model.signature_constants.PREDICT_METHOD_NAME
'''
        self.assertCodemod(before, after)

    def test_a_module_used_as_a_value_keeps_a_binding(self):
        before = '''import tensorflow as tf
from tensorflow import flags
FLAGS = flags.FLAGS
register(flags)
'''
        after = '''import tensorflow as tf
flags = tf.compat.v1.flags
FLAGS = tf.flags.FLAGS
register(flags)
'''
        self.assertCodemod(before, after)

    def test_without_an_alias_the_file_imports_tensorflow_and_reads_tf1s_names(self):
        before = '''import tensorflow.compat.v1 as tf1
from tensorflow.train import GradientDescentOptimizer
step = GradientDescentOptimizer(0.1)
'''
        after = '''import tensorflow.compat.v1 as tf1
import tensorflow

GradientDescentOptimizer = tensorflow.compat.v1.train.GradientDescentOptimizer
step = GradientDescentOptimizer(0.1)
'''
        self.assertCodemod(before, after)

    def test_contrib_keras_estimator_and_star_imports_are_other_rules(self):
        code = '''import tensorflow as tf
from tensorflow.contrib.layers import fully_connected
from tensorflow.keras.layers import Dense
from tensorflow.estimator import Estimator
from tensorflow.train import *
from tensorflow.python.ops import nn_ops
'''
        self.assertCodemod(code, code)


def test_the_namespaces_are_tf115s_own_modules():
    names = reference.load().names
    modules = {name[3:] for name, entry in names.items()
               if entry["kind"] == "module" and name.startswith("tf.") and name.count(".") == 1}
    assert TF1_NAMESPACES == modules
    assert is_namespace_module("nn.rnn_cell") and not is_namespace_module("train.AdamOptimizer")


class NamespaceImportsBeforeTheAlias(CodemodTest):
    TRANSFORM = NamespaceImportsRule

    def test_a_name_read_before_the_files_alias_is_imported_imports_it_first(self):
        before = '''from tensorflow.train import Saver
import tensorflow as tf
saver = Saver()
'''
        after = '''import tensorflow as tf
Saver = tf.train.Saver
import tensorflow as tf
saver = Saver()
'''
        self.assertCodemod(before, after)


def test_a_namespace_used_as_a_value_is_tf1s_after_migrate():
    from tf1compat.migrate.driver import migrate_source

    code = ("import tensorflow as tf\n"
            "level = tf.logging.__dict__['INFO']\n"
            "names = vars(tf.train)\n"
            "cell_module = tf.nn.rnn_cell\n"
            "saver = tf.train.Saver()\n"
            "y = tf.nn.relu(1.0)\n")
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert "tf.compat.v1.logging.__dict__['INFO']" in migrated
    assert "vars(tf.compat.v1.train)" in migrated
    assert "cell_module = tf1compat.rnn_cell" in migrated   # legacy Keras's cells, served
    assert "tf.nn.relu(1.0)" in migrated   # a name read from a namespace stays tf_upgrade_v2's
    said = {f.message.split(" ")[0] for f in findings if f.rule == "v1-namesakes"}
    assert "tf.train" in said
