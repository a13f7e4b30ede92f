"""contrib.crf against TensorFlow 1.15: the same unaries, tags, lengths and transition values give
the same scores, log-likelihoods, decoded tags, gradients, and the same `transitions` variable
(name, shape, checkpoint key), under `tf1compat run` and after `migrate`."""

import pytest

from .three_ways import assert_close, three_ways

CRF = r"""
import json
import os
import shutil
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.contrib.crf.python.ops import crf as crf_ops
from tensorflow.contrib.crf.python.ops.crf import viterbi_decode

rng = np.random.RandomState(3)
unary_np = rng.randn(4, 5, 3).astype(np.float32)
unaries = tf.constant(unary_np)
tags_np = rng.randint(0, 3, size=(4, 5)).astype(np.int32)
tags = tf.constant(tags_np)
tags64 = tf.constant(tags_np.astype(np.int64))
lengths_np = np.array([5, 3, 1, 0], np.int32)
lengths = tf.constant(lengths_np)
with tf.variable_scope("tagger"):
    log_likelihood, transitions = tf.contrib.crf.crf_log_likelihood(unaries, tags, lengths)
fixed = tf.constant(rng.randn(3, 3).astype(np.float32))
ll64, _ = tf.contrib.crf.crf_log_likelihood(unaries, tags64, lengths, fixed)
parts = {
    "sequence": tf.contrib.crf.crf_sequence_score(unaries, tags, lengths, transitions),
    "norm": tf.contrib.crf.crf_log_norm(unaries, lengths, transitions),
    "unary": tf.contrib.crf.crf_unary_score(tags, lengths, unaries),
    "unary64": crf_ops.crf_unary_score(tags64, lengths, unaries),
    "binary": tf.contrib.crf.crf_binary_score(tags, lengths, transitions),
    "multitag": tf.contrib.crf.crf_multitag_sequence_score(
        unaries, tf.constant(rng.rand(4, 5, 3) > 0.4), lengths, transitions),
    "ll64": ll64,
}
decoded, best = tf.contrib.crf.crf_decode(unaries, transitions, lengths)
# one time step: TF1's shortcut branch
one = tf.constant(rng.randn(3, 1, 3).astype(np.float32))
one_tags = tf.constant([[2], [0], [1]])
one_lengths = tf.constant([1, 1, 0])
one_ll, _ = tf.contrib.crf.crf_log_likelihood(one, one_tags, one_lengths, transitions)
one_decoded, one_best = tf.contrib.crf.crf_decode(one, transitions, one_lengths)
# unknown time dimension: the branch is taken in the graph
fed = tf.placeholder(tf.float32, [None, None, 3])
fed_tags = tf.placeholder(tf.int32, [None, None])
fed_lengths = tf.placeholder(tf.int32, [None])
fed_ll, _ = tf.contrib.crf.crf_log_likelihood(fed, fed_tags, fed_lengths, transitions)
fed_decoded, fed_best = tf.contrib.crf.crf_decode(fed, transitions, fed_lengths)
# the forward cell on its own
_, alphas = tf.nn.dynamic_rnn(crf_ops.CrfForwardRnnCell(transitions), unaries[:, 1:],
                              initial_state=unaries[:, 0], dtype=tf.float32, scope="alpha")
# the decoding cells on their own: backpointers forward, then followed back from the best tag
pointers, last = tf.nn.dynamic_rnn(crf_ops.CrfDecodeForwardRnnCell(transitions), unaries[:, 1:],
                                   initial_state=unaries[:, 0], dtype=tf.int32, scope="fwd")
followed, _ = tf.nn.dynamic_rnn(
    crf_ops.CrfDecodeBackwardRnnCell(3), tf.reverse(pointers, [1]), dtype=tf.int32, scope="bwd",
    initial_state=tf.expand_dims(tf.cast(tf.argmax(last, 1), tf.int32), -1))
weights = tf.constant(rng.randn(4).astype(np.float32))
loss = -tf.reduce_sum(log_likelihood * weights) - tf.reduce_sum(one_ll)
grads = tf.gradients(loss, [unaries, one, transitions])
train = tf.train.GradientDescentOptimizer(0.1).minimize(-tf.reduce_mean(log_likelihood))
saver = tf.train.Saver()
out = {"variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
       "transitions_name": transitions.op.name}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(transitions.assign(rng.randn(3, 3).astype(np.float32)))
    values = sess.run({"ll": log_likelihood, "parts": parts, "decoded": decoded, "best": best,
                       "one_ll": one_ll, "one_decoded": one_decoded, "one_best": one_best,
                       "alphas": alphas, "pointers": pointers, "last": last,
                       "followed": followed, "grads": grads, "transitions": transitions})
    for steps in (1, 4):
        feed = {fed: unary_np[:, :steps], fed_tags: tags_np[:, :steps],
                fed_lengths: np.minimum(lengths_np, steps)}
        values["fed%d" % steps] = sess.run([fed_ll, fed_decoded, fed_best], feed)
    for _ in range(3):
        sess.run(train)
    values["trained"] = sess.run([transitions, log_likelihood])
    path = saver.save(sess, os.path.join(tempfile.mkdtemp(), "crf.ckpt"))
    out["checkpoint"] = sorted(name for name, _ in tf.train.list_variables(path))
    shutil.rmtree(os.path.dirname(path))


def listed(value):
    if isinstance(value, dict):
        return {key: listed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [listed(item) for item in value]
    return np.asarray(value).tolist()


out.update(listed(values))
viterbi = []
for row, length in zip(unary_np, lengths_np):
    if length:
        path, score = viterbi_decode(row[:length], values["transitions"])
        viterbi.append([[int(tag) for tag in path], float(score)])
out["viterbi"] = viterbi
print("RESULT " + json.dumps(out, sort_keys=True))
"""


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_crf_matches_tf_1_15(tmp_path, onednn):
    env = {"TF_ENABLE_ONEDNN_OPTS": onednn}
    expected, under_run, migrated = three_ways(tmp_path, CRF, env)
    assert len(expected) == 1
    assert expected[0]["transitions_name"] == "tagger/transitions"
    assert expected[0]["checkpoint"] == ["tagger/transitions"]
    # the Viterbi path in numpy agrees with the graph's decoding, in TF 1.15 as here
    assert [path for path, _ in expected[0]["viterbi"]] == \
        [row[:length] for row, length in zip(expected[0]["decoded"], [5, 3, 1])]
    # float32 logsumexp over a few steps: ulps apart between TF 1.15's kernels and TF 2.21's
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")
