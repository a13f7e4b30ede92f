"""contrib.legacy_seq2seq: the list-of-steps decoder and losses, against hand computations."""

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib import legacy_seq2seq as seq2seq

v1 = tf.compat.v1
RNG = np.random.RandomState(0)
LOGITS = [RNG.randn(2, 4).astype(np.float32) for _ in range(3)]  # 3 steps, batch 2, 4 classes
TARGETS = [np.array([0, 3], np.int32), np.array([1, 1], np.int32), np.array([2, 0], np.int32)]
WEIGHTS = [np.array([1.0, 1.0], np.float32), np.array([0.5, 1.0], np.float32),
           np.array([0.0, 2.0], np.float32)]


def crossent(logits, targets):
    shifted = logits - logits.max(1, keepdims=True)
    return np.log(np.exp(shifted).sum(1)) - shifted[np.arange(len(targets)), targets]


def per_example():
    return sum(crossent(l, t) * w for l, t, w in zip(LOGITS, TARGETS, WEIGHTS))


def consts(values):
    return [tf.constant(value) for value in values]


def test_losses_by_example_and_over_the_batch(graph):
    by_example = seq2seq.sequence_loss_by_example(consts(LOGITS), consts(TARGETS),
                                                  consts(WEIGHTS))
    summed = seq2seq.sequence_loss_by_example(consts(LOGITS), consts(TARGETS), consts(WEIGHTS),
                                              average_across_timesteps=False)
    loss = seq2seq.sequence_loss(consts(LOGITS), consts(TARGETS), consts(WEIGHTS))
    total = seq2seq.sequence_loss(consts(LOGITS), consts(TARGETS), consts(WEIGHTS),
                                  average_across_timesteps=False, average_across_batch=False)
    got = graph.run([by_example, summed, loss, total])
    averaged = per_example() / sum(WEIGHTS)
    assert got[0] == pytest.approx(averaged, rel=1e-5)
    assert got[1] == pytest.approx(per_example(), rel=1e-5)
    assert got[2] == pytest.approx(averaged.sum() / 2, rel=1e-5)
    assert got[3] == pytest.approx(per_example().sum(), rel=1e-5)
    with pytest.raises(ValueError, match="Lengths of logits, weights, and targets"):
        seq2seq.sequence_loss_by_example(consts(LOGITS), consts(TARGETS[:2]), consts(WEIGHTS))


def test_rnn_decoder_shares_the_cell_and_feeds_back_with_a_loop_function(graph):
    class Adder:
        """A cell whose state is the running sum of its inputs times one shared variable."""

        def __call__(self, inputs, state):
            scale = v1.get_variable("scale", [], initializer=v1.constant_initializer(2.0))
            new = state + scale * inputs
            return new, new

    steps = consts([np.ones((1, 1), np.float32) * k for k in (1, 2, 3)])
    start = tf.zeros([1, 1])
    outputs, last = seq2seq.rnn_decoder(steps, start, Adder(), scope="lm")
    assert [v.op.name for v in v1.global_variables()] == ["lm/scale"]
    graph.run(v1.global_variables_initializer())
    assert [o[0, 0] for o in graph.run(outputs)] == [2.0, 6.0, 12.0]
    assert graph.run(last)[0, 0] == 12.0

    seen = []

    def loop(previous, step):
        seen.append(step)
        return previous + 1.0  # the next input is built from the last output

    with v1.variable_scope("fed", reuse=v1.AUTO_REUSE):
        fed, _ = seq2seq.rnn_decoder(steps, start, Adder(), loop_function=loop)
    graph.run(v1.variables_initializer([v for v in v1.global_variables()
                                        if v.op.name.startswith("fed/")]))
    # step 0 uses its input (1): 2; then inputs 2+1=3 -> 2+6=8; 8+1=9 -> 8+18=26.
    assert [o[0, 0] for o in graph.run(fed)] == [2.0, 8.0, 26.0]
    assert seen == [1, 2]


def test_served_under_tf_contrib():
    from tf1compat import contrib

    assert contrib.legacy_seq2seq.rnn_decoder is seq2seq.rnn_decoder
    assert contrib.legacy_seq2seq.sequence_loss_by_example is seq2seq.sequence_loss_by_example


def test_migrate_imports_it_from_tf1compat():
    from tf1compat.migrate.driver import apply_rules

    migrated, _ = apply_rules("import tensorflow as tf\n"
                              "from tensorflow.contrib import legacy_seq2seq, rnn\n"
                              "loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example(a, b, c)\n",
                              "tf1compat")
    assert "from tf1compat.contrib import legacy_seq2seq, rnn\n" in migrated
    assert "loss = tf1compat.contrib.legacy_seq2seq.sequence_loss_by_example(a, b, c)" in migrated
    assert "import tf1compat.contrib.legacy_seq2seq\n" in migrated
