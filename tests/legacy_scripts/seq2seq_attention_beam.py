"""TF1: a tiny attention seq2seq on tf.contrib.seq2seq. A GRU encoder, a decoder with Bahdanau
attention (AttentionWrapper) trained 40 steps through TrainingHelper + BasicDecoder +
dynamic_decode and sequence_loss, then decoded greedily (GreedyEmbeddingHelper) and by beam
search (BeamSearchDecoder over tile_batch'ed memory)."""
import numpy as np
import tensorflow as tf

VOCAB, EMBED, UNITS, BATCH, SRC_LEN, TGT_LEN, BEAM = 8, 6, 10, 4, 5, 4, 3
GO, EOS = 1, 2

rng = np.random.RandomState(0)
source = rng.randint(3, VOCAB, size=(BATCH, SRC_LEN)).astype(np.int32)
target = np.concatenate([source[:, :TGT_LEN - 1][:, ::-1],
                         np.full((BATCH, 1), EOS)], 1).astype(np.int32)
source_lengths = np.array([5, 4, 5, 3], np.int32)
target_lengths = np.full(BATCH, TGT_LEN, np.int32)

tf.set_random_seed(1)
# one seeded initializer for every variable: TF 1.x derives an op seed from the graph seed
# differently from later releases, so the script seeds its initializer itself
tf.get_variable_scope().set_initializer(tf.random_uniform_initializer(-0.3, 0.3, seed=7))
src = tf.placeholder(tf.int32, [None, SRC_LEN])
src_len = tf.placeholder(tf.int32, [None])
tgt = tf.placeholder(tf.int32, [None, TGT_LEN])
tgt_len = tf.placeholder(tf.int32, [None])
batch = tf.shape(src)[0]

embedding = tf.get_variable("embedding", [VOCAB, EMBED])
with tf.variable_scope("encoder"):
    enc_out, enc_state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(UNITS),
                                           tf.nn.embedding_lookup(embedding, src),
                                           sequence_length=src_len, dtype=tf.float32)

projection = tf.layers.Dense(VOCAB, name="projection")


def attention_cell(memory, lengths):
    mechanism = tf.contrib.seq2seq.BahdanauAttention(UNITS, memory,
                                                     memory_sequence_length=lengths)
    return tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(UNITS), mechanism,
                                               attention_layer_size=UNITS)


with tf.variable_scope("decode"):
    cell = attention_cell(enc_out, src_len)
    dec_in = tf.concat([tf.fill([batch, 1], GO), tgt[:, :-1]], 1)
    helper = tf.contrib.seq2seq.TrainingHelper(tf.nn.embedding_lookup(embedding, dec_in),
                                               tgt_len)
    init = cell.zero_state(batch, tf.float32).clone(cell_state=enc_state)
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, init, output_layer=projection)
    train_out, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder)
    weights = tf.sequence_mask(tgt_len, TGT_LEN, dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(train_out.rnn_output, tgt, weights)
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)

with tf.variable_scope("decode", reuse=True):
    cell = attention_cell(enc_out, src_len)
    greedy = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([batch], GO), EOS)
    init = cell.zero_state(batch, tf.float32).clone(cell_state=enc_state)
    greedy_out, _, _ = tf.contrib.seq2seq.dynamic_decode(
        tf.contrib.seq2seq.BasicDecoder(cell, greedy, init, output_layer=projection),
        maximum_iterations=TGT_LEN + 2)

with tf.variable_scope("decode", reuse=True):
    tiled_memory = tf.contrib.seq2seq.tile_batch(enc_out, BEAM)
    cell = attention_cell(tiled_memory, tf.contrib.seq2seq.tile_batch(src_len, BEAM))
    init = cell.zero_state(batch * BEAM, tf.float32).clone(
        cell_state=tf.contrib.seq2seq.tile_batch(enc_state, BEAM))
    beam = tf.contrib.seq2seq.BeamSearchDecoder(cell, embedding, tf.fill([batch], GO), EOS,
                                                init, BEAM, output_layer=projection)
    beam_out, _, _ = tf.contrib.seq2seq.dynamic_decode(beam, maximum_iterations=TGT_LEN + 2)

feed = {src: source, src_len: source_lengths, tgt: target, tgt_len: target_lengths}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = [float(sess.run([loss, train_op], feed)[0]) for _ in range(40)]
    ids, beams = sess.run([greedy_out.sample_id, beam_out.predicted_ids], feed)
for step in range(0, 40, 10):
    print("step %d loss %.5f" % (step, losses[step]))
print("last loss %.5f" % losses[-1])
print("greedy ids %s" % ids.tolist())
print("beam best ids %s" % beams[:, :, 0].tolist())
print("beam shape %s" % list(beams.shape))
print("variables: %s" % sorted(v.op.name for v in tf.trainable_variables()))
