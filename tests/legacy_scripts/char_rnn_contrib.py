"""TF1: a character-level RNN on contrib cells (cudnn-compatible LSTM, GRU, LSTMBlockCell),
dynamic_rnn, contrib.layers (fully_connected on 3-D outputs, batch_norm, one-hot) and
contrib.framework (variables to restore, assign_from_checkpoint_fn)."""
import os
import sys

import numpy as np
import tensorflow as tf

save_dir = sys.argv[1]
text = "hello tensorflow one, hello contrib. " * 4
chars = sorted(set(text))
ids = np.array([chars.index(c) for c in text], dtype=np.int64)
STEPS, BATCH, VOCAB = 8, 4, len(chars)
starts = np.arange(BATCH) * 7
x_data = np.stack([ids[s:s + STEPS] for s in starts])
y_data = np.stack([ids[s + 1:s + STEPS + 1] for s in starts])

tf.set_random_seed(21)
inputs = tf.placeholder(tf.int64, [BATCH, STEPS])
targets = tf.placeholder(tf.int64, [BATCH, STEPS])
is_training = tf.placeholder_with_default(True, [])
one_hot = tf.contrib.layers.one_hot_encoding(inputs, VOCAB)
cells = [tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(12),
         tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell(10),
         tf.contrib.rnn.LSTMBlockCell(8, cell_clip=3.0)]
cell = tf.contrib.rnn.MultiRNNCell(cells)
# The cells' kernels get an initializer with its own seed: with only the graph-level seed,
# TF 1.15 derives each op seed from the number of ops built so far, TF 2 from a counter.
with tf.variable_scope("rnn", initializer=tf.glorot_uniform_initializer(seed=5)) as rnn_scope:
    outputs, state = tf.nn.dynamic_rnn(cell, one_hot, dtype=tf.float32, scope=rnn_scope)
print("outputs:", outputs.shape.as_list(), "state parts:", len(state),
      "lstm state:", type(state[0]).__name__)
with tf.contrib.framework.arg_scope([tf.contrib.layers.fully_connected],
                                    weights_initializer=tf.contrib.layers.xavier_initializer(seed=3)):
    hidden = tf.contrib.layers.fully_connected(outputs, 16, scope="hidden")
    hidden = tf.contrib.layers.batch_norm(hidden, decay=0.9, is_training=is_training,
                                          scale=True)
    logits = tf.contrib.layers.fully_connected(hidden, VOCAB, activation_fn=None, scope="out")
print("logits:", logits.shape.as_list())
loss = tf.contrib.seq2seq.sequence_loss(logits, targets, tf.ones([BATCH, STEPS]))
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
with tf.control_dependencies(update_ops):
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
for v in tf.trainable_variables():
    print("variable:", v.op.name, v.shape.as_list())
print("moving averages:", [v.op.name for v in tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)])

saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(25):
        _, value = sess.run([train_op, loss], {inputs: x_data, targets: y_data})
    print("loss after training: %.3f" % value)
    path = saver.save(sess, os.path.join(save_dir, "char_rnn"))
    trained = sess.run(loss, {inputs: x_data, targets: y_data, is_training: False})

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    to_restore = tf.contrib.framework.get_variables_to_restore(exclude=["out"])
    restore = tf.contrib.framework.assign_from_checkpoint_fn(path, to_restore)
    restore(sess)
    kernel = tf.contrib.framework.get_variables_by_name("kernel")
    print("restored:", len(to_restore), "variables; kernels named 'kernel':", len(kernel))
    partly = sess.run(loss, {inputs: x_data, targets: y_data, is_training: False})
    print("restoring all but 'out' changes the loss:", bool(abs(partly - trained) > 1e-3))
    print("inference loss: %.3f" % trained)
