"""contrib.seq2seq's served names: one table for `run` and `migrate`, and the clear errors."""

import pytest
import tensorflow as tf

from tf1compat.contrib import registry, seq2seq

DECODING = ("Helper", "TrainingHelper", "GreedyEmbeddingHelper", "Decoder", "BasicDecoder",
            "BasicDecoderOutput", "dynamic_decode", "tile_batch", "BahdanauAttention",
            "LuongAttention", "AttentionWrapper", "AttentionWrapperState", "BeamSearchDecoder",
            "BeamSearchDecoderOutput", "BeamSearchDecoderState", "FinalBeamSearchDecoderOutput",
            "gather_tree")


@pytest.mark.parametrize("name", DECODING)
def test_run_resolves_each_name_to_the_replacement(name):
    entry = registry.lookup(f"seq2seq.{name}")
    assert entry.served is registry.Served.REPLACED
    assert entry.target == f"tf1compat.contrib.seq2seq.{name}"
    assert registry.resolve(f"seq2seq.{name}") is getattr(seq2seq, name)


def test_migrate_rewrites_to_the_same_names():
    from tf1compat.migrate.driver import apply_rules

    migrated, _ = apply_rules(
        "import tensorflow as tf\n"
        "from tensorflow.contrib.seq2seq import dynamic_decode\n"
        "d = tf.contrib.seq2seq.BeamSearchDecoder(c, e, s, 1, i, 3)\n"
        "t = tf.contrib.seq2seq.tile_batch(m, 3)\n", "tf1compat")
    assert "from tf1compat.contrib.seq2seq import dynamic_decode\n" in migrated
    assert "d = tf1compat.contrib.seq2seq.BeamSearchDecoder(c, e, s, 1, i, 3)" in migrated
    assert "t = tf1compat.contrib.seq2seq.tile_batch(m, 3)" in migrated


def test_a_helper_not_served_is_an_error_naming_it():
    with pytest.raises(registry.ContribError, match="ScheduledEmbeddingTrainingHelper"):
        seq2seq.ScheduledEmbeddingTrainingHelper


def test_bad_arguments_say_what_is_wrong():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="start_tokens must be a vector"):
            seq2seq.GreedyEmbeddingHelper(tf.zeros([4, 2]), [[1]], 0)
        with pytest.raises(TypeError, match="helper must be a Helper"):
            seq2seq.BasicDecoder(_cell(), "helper", None)
        with pytest.raises(TypeError, match="Expected decoder to be type Decoder"):
            seq2seq.dynamic_decode("decoder")
        with pytest.raises(ValueError, match="coverage_penalty_weight=0.5 is not served"):
            seq2seq.BeamSearchDecoder(_cell(), tf.zeros([4, 2]), [1], 0, tf.zeros([3, 2]), 3,
                                      coverage_penalty_weight=0.5)


def _cell():
    import tf1compat.rnn_cell

    return tf1compat.rnn_cell.GRUCell(2)
