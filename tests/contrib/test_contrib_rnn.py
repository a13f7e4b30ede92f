"""contrib.rnn / cudnn_rnn cells: output shapes, state structure, weights and formulas."""

import numpy as np
import pytest
import tensorflow as tf

import tf1compat.contrib as contrib

v1 = tf.compat.v1


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def run_cell(graph, cell, inputs, state):
    output, new_state = cell(tf.constant(inputs), state)
    graph.run(v1.global_variables_initializer())
    return output, new_state


def test_mapped_cells_come_from_legacy_keras(graph):
    cell = contrib.rnn.MultiRNNCell([contrib.rnn.BasicLSTMCell(3), contrib.rnn.GRUCell(2)])
    assert type(cell).__module__.startswith("tf_keras")
    outputs, state = v1.nn.dynamic_rnn(cell, tf.ones([2, 4, 5]), dtype=tf.float32)
    assert outputs.shape.as_list() == [2, 4, 2]
    assert isinstance(state[0], contrib.rnn.LSTMStateTuple)
    assert state[0].h.shape.as_list() == [2, 3] and state[1].shape.as_list() == [2, 2]


def test_lstm_block_cell_is_basic_lstm_weights_and_gates(graph):
    cell = contrib.rnn.LSTMBlockCell(4, forget_bias=1.0)
    assert cell.state_size == (4, 4) and cell.output_size == 4
    x = np.random.RandomState(0).rand(2, 3).astype(np.float32)
    c0 = np.random.RandomState(1).rand(2, 4).astype(np.float32)
    h0 = np.random.RandomState(2).rand(2, 4).astype(np.float32)
    output, state = run_cell(graph, cell, x, contrib.rnn.LSTMStateTuple(
        tf.constant(c0), tf.constant(h0)))
    assert [v.op.name for v in v1.trainable_variables()] == ["lstm_cell/kernel",
                                                              "lstm_cell/bias"]
    kernel, bias = graph.run(v1.trainable_variables())
    i, j, f, o = np.split(np.concatenate([x, h0], 1) @ kernel + bias, 4, axis=1)
    c1 = c0 * sigmoid(f + 1.0) + sigmoid(i) * np.tanh(j)
    h1 = np.tanh(c1) * sigmoid(o)
    out, (c, h) = graph.run([output, state])
    # float32 gates of values near 1: a state near 0 is a difference of such values, so its
    # error is absolute (a few float32 epsilons), not relative
    np.testing.assert_allclose(c, c1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, h1, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, h1, rtol=1e-5, atol=1e-6)


def test_lstm_block_cell_clips_the_cell_state(graph):
    cell = contrib.rnn.LSTMBlockCell(2, cell_clip=0.1)
    big = contrib.rnn.LSTMStateTuple(tf.fill([1, 2], 5.0), tf.zeros([1, 2]))
    _, state = run_cell(graph, cell, np.ones([1, 3], np.float32), big)
    assert np.abs(graph.run(state.c)).max() <= 0.1 + 1e-7
    with pytest.raises(ValueError, match="use_peephole"):
        contrib.rnn.LSTMBlockCell(2, use_peephole=True)


def test_cudnn_compatible_lstm_has_no_forget_bias(graph):
    cell = contrib.cudnn_rnn.CudnnCompatibleLSTMCell(3)
    x = np.ones([1, 2], np.float32)
    zero = cell.zero_state(1, tf.float32)
    output, state = run_cell(graph, cell, x, zero)
    assert v1.trainable_variables()[0].op.name == "cudnn_compatible_lstm_cell/kernel"
    kernel, bias = graph.run(v1.trainable_variables())
    i, j, f, o = np.split(np.concatenate([x, np.zeros([1, 3])], 1) @ kernel + bias, 4, axis=1)
    c1 = sigmoid(i) * np.tanh(j)  # c0 = 0, forget bias 0
    np.testing.assert_allclose(graph.run(output), np.tanh(c1) * sigmoid(o), rtol=1e-5, atol=1e-6)


def test_cudnn_compatible_gru_follows_cudnns_formula(graph):
    cell = contrib.cudnn_rnn.CudnnCompatibleGRUCell(3)
    rng = np.random.RandomState(3)
    x, h0 = rng.rand(2, 4).astype(np.float32), rng.rand(2, 3).astype(np.float32)
    output, state = run_cell(graph, cell, x, tf.constant(h0))
    weights = {v.op.name.split("cudnn_compatible_gru_cell/")[1]: graph.run(v)
               for v in v1.trainable_variables()}
    assert set(weights) == {"gates/kernel", "gates/bias", "candidate/input_projection/kernel",
                            "candidate/hidden_projection/kernel",
                            "candidate/input_projection/bias", "candidate/hidden_projection/bias"}
    np.testing.assert_array_equal(weights["gates/bias"], np.ones(6))
    r, u = np.split(sigmoid(np.concatenate([x, h0], 1) @ weights["gates/kernel"]
                            + weights["gates/bias"]), 2, axis=1)
    candidate = np.tanh(x @ weights["candidate/input_projection/kernel"]
                        + weights["candidate/input_projection/bias"]
                        + r * (h0 @ weights["candidate/hidden_projection/kernel"]
                               + weights["candidate/hidden_projection/bias"]))
    expected = u * h0 + (1 - u) * candidate
    out, new = graph.run([output, state])
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out, new)
