"""TF1: a word embedding trained a few steps with contrib.opt's LazyAdam (sparse updates), saved
to a checkpoint and exported for TensorBoard's embedding projector (metadata file and
projector_config.pbtxt written through the FileWriter, as the word2vec tutorials did)."""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector

log_dir = os.path.join(sys.argv[1], "projector_logs")
words = ["the", "cat", "sat", "on", "mat", "dog", "ran", "far"]
pairs = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 4], [5, 6], [6, 7], [0, 5]], np.int32)
VOCAB, DIM = len(words), 4

centers = tf.placeholder(tf.int32, [None])
contexts = tf.placeholder(tf.int32, [None])
with tf.variable_scope("embedding"):
    embeddings = tf.get_variable(
        "words", [VOCAB, DIM], initializer=tf.random_uniform_initializer(-1.0, 1.0, seed=3))
    output = tf.get_variable(
        "output", [VOCAB, DIM], initializer=tf.truncated_normal_initializer(stddev=0.5, seed=4))
logits = tf.matmul(tf.nn.embedding_lookup(embeddings, centers), output, transpose_b=True)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=contexts,
                                                                     logits=logits))
global_step = tf.train.get_or_create_global_step()
train_op = tf.contrib.opt.LazyAdamOptimizer(0.1).minimize(loss, global_step=global_step)
saver = tf.train.Saver()

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    initial = sess.run(embeddings)
    feed = {centers: pairs[:, 0], contexts: pairs[:, 1]}
    for step in range(5):
        _, value = sess.run([train_op, loss], feed)
        print("step %d loss %.5f" % (step, value))
    # LazyAdam touches only the rows looked up: "far" (7) is never a center word
    trained = sess.run(embeddings)
    print("rows moved: %s" % [int(not np.allclose(trained[row], initial[row]))
                              for row in range(VOCAB)])
    if not os.path.isdir(log_dir):
        os.makedirs(log_dir)
    checkpoint = saver.save(sess, os.path.join(log_dir, "model.ckpt"), global_step=global_step)

with open(os.path.join(log_dir, "metadata.tsv"), "w") as f:
    f.write("\n".join(words) + "\n")
config = projector.ProjectorConfig()
config.model_checkpoint_path = checkpoint
embedding = config.embeddings.add()
embedding.tensor_name = embeddings.name
embedding.metadata_path = "metadata.tsv"
writer = tf.summary.FileWriter(log_dir)
projector.visualize_embeddings(writer, config)
writer.close()

parsed = projector.ProjectorConfig()
with open(os.path.join(log_dir, "projector_config.pbtxt")) as f:
    from google.protobuf import text_format
    text_format.Merge(f.read(), parsed)
print("checkpoint: %s" % os.path.relpath(parsed.model_checkpoint_path, log_dir))
for info in parsed.embeddings:
    print("embedding tensor %s metadata %s" % (info.tensor_name, info.metadata_path))
for name, shape in tf.train.list_variables(checkpoint):
    print("variable %s %s" % (name, shape))
print("words[0] %s" % np.round(tf.train.load_variable(checkpoint, "embedding/words")[0], 4))
