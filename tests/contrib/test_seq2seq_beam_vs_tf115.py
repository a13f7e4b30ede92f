"""contrib.seq2seq.BeamSearchDecoder (with attention and alignment history) against TF 1.15.

The same beam search is built in TensorFlow 1.15 and in tf1compat with the same
variable values: predicted ids, scores, parents, lengths, the reordered
alignment history and the variable names must agree.
"""


import numpy as np
import pytest

from contrib.seq2seq_reference import run_case

pytestmark = pytest.mark.usefixtures("tf1_python")  # skips without TF 1.15, fails in CI

CASE = """
def build(tf1, s2s, cells, Dense):
    import numpy as np
    beam = 3
    memory = tf1.constant(np.cos(0.3 * np.arange(2 * 4 * 3)).reshape(2, 4, 3), tf1.float32)
    embedding = tf1.get_variable("embedding", [9, 4])
    mechanism = s2s.{mechanism}(5, s2s.tile_batch(memory, beam),
                                memory_sequence_length=s2s.tile_batch(tf1.constant([4, 3]), beam))
    cell = s2s.AttentionWrapper(cells.GRUCell(5), mechanism, attention_layer_size=5,
                                alignment_history=True)
    decoder = s2s.BeamSearchDecoder(cell, embedding, tf1.constant([1, 1]), 2,
                                    cell.zero_state(2 * beam, tf1.float32), beam,
                                    output_layer=Dense(9), length_penalty_weight={penalty})
    out, state, lens = s2s.dynamic_decode(decoder, maximum_iterations=7)
    history = state.cell_state.alignment_history
    history = history.stack() if hasattr(history, "stack") else history
    return {{"ids": out.predicted_ids, "scores": out.beam_search_decoder_output.scores,
            "parents": out.beam_search_decoder_output.parent_ids,
            "log_probs": state.log_probs, "lengths": lens,
            "history": history}}
"""


@pytest.mark.parametrize("mechanism,penalty", [("BahdanauAttention", 0.0),
                                               ("LuongAttention", 0.6)])
def test_beam_search_matches_tf115(mechanism, penalty):
    case = CASE.format(mechanism=mechanism, penalty=penalty)
    ref = run_case(case, "tf1")
    got = run_case(case, "tf1compat")
    assert got["variables"] == ref["variables"]
    for key in ("ids", "parents", "lengths"):
        assert got["values"][key] == ref["values"][key], key
    for key in ("scores", "log_probs", "history"):
        np.testing.assert_allclose(got["values"][key], ref["values"][key], rtol=1e-5, atol=1e-6,
                                   err_msg=key)
    assert np.asarray(ref["values"]["ids"]).shape[::2] == (2, 3)


def test_gather_tree_matches_tf115():
    case = """
def build(tf1, s2s, cells, Dense):
    step = tf1.constant([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [1, 2, 3]],
                         [[2, 9, 4], [5, 2, 6]], [[8, 7, 2], [3, 4, 5]]])
    parent = tf1.constant([[[0, 0, 0], [0, 1, 2]], [[2, 1, 0], [1, 1, 0]],
                           [[0, 2, 1], [2, 0, 1]], [[1, 1, 0], [0, 2, 2]]])
    return {"full": s2s.gather_tree(step, parent, [4, 3], 2),
            "short": s2s.gather_tree(step, parent, [2, 0], 2)}
"""
    assert run_case(case, "tf1compat")["values"] == run_case(case, "tf1")["values"]
