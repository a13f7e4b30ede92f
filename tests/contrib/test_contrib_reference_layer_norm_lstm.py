"""contrib.rnn.LayerNormBasicLSTMCell against TensorFlow 1.15: the same inputs and weights (set by
variable name from one seeded generator) give the same outputs, final state and gradients, with
the same variable names, collections and checkpoint keys, under `tf1compat run` and after
`migrate`; with layer normalisation and without (kernel and bias); a dropout cell by its
variables and shapes."""

import pytest

from .three_ways import assert_close, three_ways

CELL = r"""
import json
import os
import shutil
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.contrib.rnn.python.ops.rnn_cell import LayerNormBasicLSTMCell

rng = np.random.RandomState(11)
inputs = tf.constant(rng.randn(3, 5, 4).astype(np.float32))
lengths = tf.constant([5, 2, 4])
tf.set_random_seed(3)
normed = tf.contrib.rnn.LayerNormBasicLSTMCell(6, norm_gain=1.3, norm_shift=0.2)
outputs, state = tf.nn.dynamic_rnn(normed, inputs, sequence_length=lengths, dtype=tf.float32,
                                   scope="normed")
plain = LayerNormBasicLSTMCell(6, forget_bias=0.5, layer_norm=False, activation=tf.nn.relu)
plain_out, plain_state = tf.nn.dynamic_rnn(plain, inputs, dtype=tf.float32, scope="plain")
with tf.variable_scope("stepped"):
    one = tf.contrib.rnn.LayerNormBasicLSTMCell(6)
    zero = one.zero_state(3, tf.float32)
    step_out, step_state = one(inputs[:, 0], zero)
    again_out, _ = one(inputs[:, 1], step_state)  # the same variables, reused
dropped = tf.contrib.rnn.LayerNormBasicLSTMCell(6, dropout_keep_prob=0.6, dropout_prob_seed=9)
drop_out, _ = tf.nn.dynamic_rnn(dropped, inputs, dtype=tf.float32, scope="dropped")
weights = tf.constant(rng.randn(3, 5, 6).astype(np.float32))
loss = (tf.reduce_sum(outputs * weights) + tf.reduce_sum(state.c) + tf.reduce_sum(plain_out)
        + tf.reduce_sum(again_out * weights[:, 0]))
variables = [v for v in tf.trainable_variables() if not v.op.name.startswith("dropped/")]
grads = tf.gradients(loss, [inputs] + variables)
drop_grads = tf.gradients(tf.reduce_sum(drop_out * weights),
                          [inputs] + [v for v in tf.trainable_variables() if v not in variables])
saver = tf.train.Saver()
out = {"variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
       "trainable": [v.op.name for v in tf.trainable_variables()],
       "model_variables": [v.op.name for v in tf.model_variables()],
       "state_size": [normed.state_size.c, normed.state_size.h, normed.output_size]}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["initial_norm"] = [sess.run(name + ":0").tolist() for name in (
        "normed/layer_norm_basic_lstm_cell/input/gamma",
        "normed/layer_norm_basic_lstm_cell/state/beta")]
    for v in tf.global_variables():
        sess.run(v.assign(rng.uniform(-0.5, 0.5, v.shape.as_list()).astype(np.float32)))
    values = sess.run({"outputs": outputs, "c": state.c, "h": state.h, "plain": plain_out,
                       "plain_c": plain_state.c, "step": step_out, "again": again_out,
                       "drop": drop_out, "grads": grads,
                       "drop_grads": drop_grads})
    path = saver.save(sess, os.path.join(tempfile.mkdtemp(), "cell.ckpt"))
    out["checkpoint"] = sorted(name for name, _ in tf.train.list_variables(path))
    shutil.rmtree(os.path.dirname(path))
out.update({key: [np.asarray(v).tolist() for v in value] if isinstance(value, list)
            else np.asarray(value).tolist() for key, value in values.items()})
print("RESULT " + json.dumps(out, sort_keys=True))
"""


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_layer_norm_basic_lstm_cell_matches_tf_1_15(tmp_path, onednn):
    env = {"TF_ENABLE_ONEDNN_OPTS": onednn}
    expected, under_run, migrated = three_ways(tmp_path, CELL, env)
    assert len(expected) == 1 and len(under_run) == 1 and len(migrated) == 1
    names = [name for name, _ in expected[0]["variables"]]
    assert "normed/layer_norm_basic_lstm_cell/kernel" in names
    assert "plain/layer_norm_basic_lstm_cell/bias" in names
    assert "normed/layer_norm_basic_lstm_cell/bias" not in names
    for ours, where in ((under_run, "run"), (migrated, "migrate")):
        for key in ("variables", "trainable", "model_variables", "checkpoint", "state_size"):
            assert ours[0][key] == expected[0][key], (where, key)
        # the seeded recurrent dropout: TF 2.21's random stream inside the RNN loop is not
        # TF 1.15's in every run (measured: some runs equal, others about 1e-2 apart), so the
        # dropout cell is compared by its variables and shapes, the rest by value
        compared = [{k: v for k, v in r[0].items() if k not in ("drop", "drop_grads")}
                    for r in (expected, ours)]
        assert_close(compared[0], compared[1], 1e-4, where)
        assert [len(g) for g in ours[0]["drop_grads"]] == \
            [len(g) for g in expected[0]["drop_grads"]], where
