"""TF1: a part-of-speech tagger with a CRF on top: contrib.learn's VocabularyProcessor for the
token ids, an embedding and a bidirectional LSTM for the unary scores, crf_log_likelihood for
the loss (its `transitions` variable), crf_decode in the graph and viterbi_decode in numpy."""
import os
import sys

import numpy as np
import tensorflow as tf

save_dir = sys.argv[1]
sentences = ["the dog runs", "a cat sleeps", "the big dog barks loudly", "a small cat runs",
             "the cat sees a dog", "dogs bark", "the old man walks slowly"]
tag_names = ["DET", "ADJ", "NOUN", "VERB", "ADV"]
tags_of = {"the": 0, "a": 0, "big": 1, "small": 1, "old": 1, "dog": 2, "cat": 2, "man": 2,
           "dogs": 2, "runs": 3, "sleeps": 3, "barks": 3, "sees": 3, "bark": 3, "walks": 3,
           "loudly": 4, "slowly": 4}
MAX_LEN = 6
processor = tf.contrib.learn.preprocessing.VocabularyProcessor(MAX_LEN)
word_ids = np.array(list(processor.fit_transform(sentences)), dtype=np.int32)
lengths = np.array([len(s.split()) for s in sentences], dtype=np.int32)
gold = np.zeros_like(word_ids)
for row, sentence in enumerate(sentences):
    for col, word in enumerate(sentence.split()):
        gold[row, col] = tags_of[word]
print("vocabulary size:", len(processor.vocabulary_))
print("ids of the first sentence:", word_ids[0].tolist())
print("reversed:", list(processor.reverse(word_ids[:1])))

VOCAB, TAGS = len(processor.vocabulary_), len(tag_names)
tokens = tf.placeholder(tf.int32, [None, MAX_LEN])
labels = tf.placeholder(tf.int32, [None, MAX_LEN])
seq_lengths = tf.placeholder(tf.int32, [None])
# every initializer has its own seed: TF 1.15 and TF 2 derive op seeds differently
init = tf.glorot_uniform_initializer(seed=7)
embeddings = tf.get_variable("embeddings", [VOCAB, 8], initializer=init)
embedded = tf.nn.embedding_lookup(embeddings, tokens)
with tf.variable_scope("bilstm", initializer=tf.glorot_uniform_initializer(seed=11)):
    (forward, backward), _ = tf.nn.bidirectional_dynamic_rnn(
        tf.contrib.rnn.LSTMCell(6), tf.contrib.rnn.LSTMCell(6), embedded,
        sequence_length=seq_lengths, dtype=tf.float32)
hidden = tf.concat([forward, backward], axis=-1)
unaries = tf.layers.dense(hidden, TAGS, kernel_initializer=tf.glorot_uniform_initializer(seed=3),
                          name="unaries")
with tf.variable_scope("crf", initializer=tf.random_uniform_initializer(-0.1, 0.1, seed=5)):
    log_likelihood, transitions = tf.contrib.crf.crf_log_likelihood(unaries, labels, seq_lengths)
loss = tf.reduce_mean(-log_likelihood)
train_op = tf.train.AdamOptimizer(0.02).minimize(loss)
decoded, best_score = tf.contrib.crf.crf_decode(unaries, transitions, seq_lengths)
print("transitions:", transitions.op.name, transitions.shape.as_list())
for v in tf.trainable_variables():
    print("variable:", v.op.name, v.shape.as_list())

feed = {tokens: word_ids, labels: gold, seq_lengths: lengths}
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("loss before training: %.5f" % sess.run(loss, feed))
    for step in range(20):
        _, value = sess.run([train_op, loss], feed)
        if step % 5 == 4:
            print("step %d loss %.5f" % (step + 1, value))
    tags_graph, scores, unary_values, transition_values = sess.run(
        [decoded, best_score, unaries, transitions], feed)
    path = saver.save(sess, os.path.join(save_dir, "tagger"))

print("best scores:", " ".join("%.4f" % s for s in scores))
correct = 0
for row, length in enumerate(lengths):
    path_np, score_np = tf.contrib.crf.viterbi_decode(unary_values[row, :length],
                                                      transition_values)
    assert list(path_np) == tags_graph[row, :length].tolist(), (path_np, tags_graph[row])
    correct += int(np.sum(np.array(path_np) == gold[row, :length]))
    print(" ".join(tag_names[t] for t in path_np), "%.4f" % score_np)
print("tagged correctly: %d of %d" % (correct, lengths.sum()))
print("checkpoint:", sorted(name for name, _ in tf.train.list_variables(path)
                            if "Adam" not in name and "power" not in name))
