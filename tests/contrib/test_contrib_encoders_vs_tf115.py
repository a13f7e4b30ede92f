"""contrib.layers' encoders (`embed_sequence`, `bow_encoder`, `embedding_lookup_unique`),
three ways: TF 1.15, `tf1compat run`, and after `migrate`."""

import pytest

from contrib.three_ways import assert_close, three_ways

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
import numpy as np
import tensorflow as tf
tf.set_random_seed(3)
ids = tf.constant([[1, 2, 2], [0, 3, -1]])
e1 = tf.contrib.layers.embed_sequence(ids[:, :2], vocab_size=5, embed_dim=3,
                                      initializer=tf.random_uniform_initializer(seed=1))
e2 = tf.contrib.layers.embed_sequence(ids[:, :2], vocab_size=5, embed_dim=3, unique=True,
                                      scope="EmbedSequence", reuse=True)
b1 = tf.contrib.layers.bow_encoder(ids, 5, 2, initializer=tf.constant_initializer(
    np.arange(10).reshape(5, 2)))
b2 = tf.contrib.layers.bow_encoder(ids[:, :2], 5, 2, sparse_lookup=False, scope="bow_encoder",
                                   reuse=True)
u = tf.contrib.layers.embedding_lookup_unique(tf.constant(np.arange(10.).reshape(5, 2)),
                                              tf.constant([[4, 4], [1, 4]]))
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print("RESULT " + json.dumps([x.tolist() for x in s.run([e1, e2, b1, b2, u])] +
          [sorted(v.name for v in tf.model_variables()), e1.name, b1.name, u.name]))
"""


def test_encoders_give_tf_1_15_s_embeddings_names_and_means(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    # [0, 3, -1] averages id 3 alone: contrib read dense ids without their zeros
    assert expected[0][2][1] == [6.0, 7.0]
    assert expected[0][5] == ["EmbedSequence/embeddings:0", "bow_encoder/embeddings:0"]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")


def test_embed_sequence_without_sizes_or_reuse_names_both():
    import tensorflow as tf

    from tf1compat.contrib.encoders import embed_sequence

    with tf.Graph().as_default(), pytest.raises(ValueError, match="vocab_size=None and embed_dim=4"):
        embed_sequence(tf.constant([[1]]), embed_dim=4)
