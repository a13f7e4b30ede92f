"""contrib.seq2seq decoding (helpers, BasicDecoder, dynamic_decode, tile_batch) against TF 1.15.

Each case builds the same model in TensorFlow 1.15 (tf.contrib.seq2seq) and in
tf1compat, with the same inputs and variable values: outputs, gradients and
variable names (what checkpoints key on) must agree.
"""


import numpy as np
import pytest

from contrib.seq2seq_reference import run_case

pytestmark = pytest.mark.usefixtures("tf1_python")  # skips without TF 1.15, fails in CI

TRAINING = """
def build(tf1, s2s, cells, Dense):
    import numpy as np
    inputs = tf1.constant(np.cos(np.arange(3 * 5 * 4)).reshape(3, 5, 4), tf1.float32)
    lengths = tf1.constant([5, 2, 3])
    cell = cells.LSTMCell(6)
    helper = s2s.TrainingHelper(inputs, lengths)
    decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(3, tf1.float32),
                               output_layer=Dense(7))
    out, state, lens = s2s.dynamic_decode(decoder, impute_finished=True)
    return {"logits": out.rnn_output, "ids": out.sample_id, "c": state.c, "h": state.h,
            "lengths": lens}
"""

GREEDY = """
def build(tf1, s2s, cells, Dense):
    embedding = tf1.get_variable("embedding", [7, 4])
    cell = cells.GRUCell(5)
    helper = s2s.GreedyEmbeddingHelper(embedding, tf1.constant([1, 2, 0, 4]), 3)
    decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(4, tf1.float32),
                               output_layer=Dense(7, use_bias=False))
    out, state, lens = s2s.dynamic_decode(decoder, maximum_iterations=6, scope="infer")
    return {"logits": out.rnn_output, "ids": out.sample_id, "state": state, "lengths": lens}
"""

TIME_MAJOR = """
def build(tf1, s2s, cells, Dense):
    import numpy as np
    inputs = tf1.constant(np.sin(np.arange(4 * 2 * 3)).reshape(4, 2, 3), tf1.float32)
    cell = cells.MultiRNNCell([cells.BasicLSTMCell(3), cells.GRUCell(2)])
    helper = s2s.TrainingHelper(inputs, [4, 1], time_major=True)
    decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf1.float32))
    out, state, lens = s2s.dynamic_decode(decoder, output_time_major=True)
    tiled = s2s.tile_batch({"a": inputs[0], "b": tf1.constant([[1, 2], [3, 4]])}, 3)
    return {"out": out.rnn_output, "h0": state[0].h, "s1": state[1], "lengths": lens,
            "tiled_a": tiled["a"], "tiled_b": tiled["b"]}
"""


def compare(case, env=None):
    ref = run_case(case, "tf1")
    got = run_case(case, "tf1compat", env)
    assert got["variables"] == ref["variables"]
    assert sorted(got["values"]) == sorted(ref["values"])
    for key, value in ref["values"].items():
        np.testing.assert_allclose(got["values"][key], value, rtol=1e-5, atol=1e-6, err_msg=key)
    assert sorted(got["grads"]) == sorted(ref["grads"])
    for key, value in ref["grads"].items():
        np.testing.assert_allclose(got["grads"][key], value, rtol=1e-5, atol=1e-6, err_msg=key)
    return ref


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_training_helper_basic_decoder_impute_finished(onednn):
    ref = compare(TRAINING, {"TF_ENABLE_ONEDNN_OPTS": onednn})
    assert ref["values"]["lengths"] == [5, 2, 3]
    assert set(ref["variables"]) == {"decoder/lstm_cell/kernel", "decoder/lstm_cell/bias",
                                     "decoder/dense/kernel", "decoder/dense/bias"}


def test_greedy_embedding_helper_with_maximum_iterations():
    ref = compare(GREEDY)
    assert "infer/gru_cell/gates/kernel" in ref["variables"]
    assert np.asarray(ref["values"]["logits"]).shape[0] == 4


def test_time_major_multi_cell_and_tile_batch():
    ref = compare(TIME_MAJOR)
    assert np.asarray(ref["values"]["tiled_b"]).tolist() == [[1, 2]] * 3 + [[3, 4]] * 3
