"""TF 1.15's API namespaces imported as modules, in a whole program: TF 1.15, run, migrate.

`from tensorflow.train import GradientDescentOptimizer`, `from tensorflow import nn, layers as
L`, `import tensorflow.nn.rnn_cell as rnn_cell` and `from tensorflow.saved_model import
signature_constants` gave TF1's names in TF 1.15, and so did a namespace's `__dict__`
(`tf.logging.__dict__["INFO"]`, `vars(tf.train)`); under `run` and after `migrate` they must
give the same (TF 2.21's `tensorflow.train` has no GradientDescentOptimizer, and no
`tensorflow.layers` exists).
"""

import pytest

from contrib.three_ways import assert_close, three_ways

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
from tensorflow.train import GradientDescentOptimizer
from tensorflow import nn, layers as L
import tensorflow.nn.rnn_cell as rnn_cell
from tensorflow.saved_model import signature_constants
import tensorflow.compat.v1 as tf1
import tensorflow as tf

x = tf1.placeholder(tf1.float32, [None, 3])
y = L.dense(x, 2, kernel_initializer=tf1.ones_initializer())
loss = tf1.reduce_sum(nn.relu(y))
step = GradientDescentOptimizer(0.1).minimize(loss)
cell = rnn_cell.BasicRNNCell(2)
with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    before = sess.run(loss, {x: [[1., 2., 3.]]})
    sess.run(step, {x: [[1., 2., 3.]]})
    after = sess.run(loss, {x: [[1., 2., 3.]]})
print("RESULT " + json.dumps([float(before), float(after), cell.state_size,
                              signature_constants.PREDICT_METHOD_NAME,
                              tf.logging.__dict__["INFO"], "AdamOptimizer" in vars(tf.train),
                              tf.train.__dict__.get("NoSuchName", "absent")]))
"""


def test_namespace_imports_give_tf1s_names_three_ways(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected and expected[0][0] == 12.0
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")
