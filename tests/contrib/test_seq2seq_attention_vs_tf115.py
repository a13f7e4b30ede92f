"""contrib.seq2seq attention (Bahdanau, Luong, AttentionWrapper) against TF 1.15.

The same attention decoder is built in TensorFlow 1.15 and in tf1compat with the
same inputs and variable values: outputs, final state, gradients and variable
names must agree.
"""


import numpy as np
import pytest

from contrib.seq2seq_reference import run_case

pytestmark = pytest.mark.usefixtures("tf1_python")  # skips without TF 1.15, fails in CI

CASE = """
def build(tf1, s2s, cells, Dense):
    import numpy as np
    memory = tf1.constant(np.cos(0.3 * np.arange(2 * 4 * 3)).reshape(2, 4, 3), tf1.float32)
    inputs = tf1.constant(np.sin(np.arange(2 * 3 * 2)).reshape(2, 3, 2), tf1.float32)

    def doubled_attention(mechanism, cell_output, attention_state, attention_layer):
        alignments, next_state = mechanism(cell_output, state=attention_state)
        context = tf1.reduce_sum(tf1.expand_dims(alignments, 2) * mechanism.values, 1)
        return context * 2.0, alignments, next_state

    mechanism = s2s.{mechanism}
    cell = s2s.AttentionWrapper(cells.LSTMCell(5), mechanism, {wrapper})
    helper = s2s.TrainingHelper(inputs, [3, 2])
    decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf1.float32),
                               output_layer=Dense(6))
    out, state, lens = s2s.dynamic_decode(decoder)
    result = {{"logits": out.rnn_output, "ids": out.sample_id, "h": state.cell_state.h,
              "attention": state.attention, "alignments": state.alignments,
              "time": state.time}}
    if {history}:
        result["history"] = state.alignment_history.stack()
    return result
"""

CASES = {
    "bahdanau": ("BahdanauAttention(4, memory, memory_sequence_length=[4, 2])",
                 "attention_layer_size=3", False),
    "bahdanau_normalized": ("BahdanauAttention(4, memory, normalize=True)",
                            "alignment_history=True", True),
    "luong": ("LuongAttention(5, memory, memory_sequence_length=[3, 4])",
              "attention_layer_size=4, alignment_history=True", True),
    "luong_scaled": ("LuongAttention(5, memory, scale=True)", "output_attention=False", False),
    # TF 1.15's later parameters: the keys and values made by the caller, the caller's own
    # attention layer, and its own attention function (here: the attention doubled)
    "custom_keys_and_layer": (
        "BahdanauAttention(4, memory, None, False, None, None, None, "
        "lambda keys, values: (keys * 2.0, values - 1.0))",
        "attention_layer=Dense(3, use_bias=False, name='own_attention')", False),
    "luong_custom_keys_and_fn": (
        "LuongAttention(5, memory, custom_key_value_fn=lambda keys, values: (keys, values * 0.5))",
        "attention_fn=doubled_attention", False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_attention_decoder_matches_tf115(name):
    mechanism, wrapper, history = CASES[name]
    case = CASE.format(mechanism=mechanism, wrapper=wrapper, history=history)
    ref = run_case(case, "tf1")
    got = run_case(case, "tf1compat")
    assert got["variables"] == ref["variables"]
    assert sorted(got["values"]) == sorted(ref["values"])
    for key, value in ref["values"].items():
        np.testing.assert_allclose(got["values"][key], value, rtol=1e-5, atol=1e-6, err_msg=key)
    assert sorted(got["grads"]) == sorted(ref["grads"])
    for key, value in ref["grads"].items():
        np.testing.assert_allclose(got["grads"][key], value, rtol=1e-5, atol=1e-6, err_msg=key)
    assert "memory_layer/kernel" in ref["variables"]
