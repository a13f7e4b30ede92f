"""TF1: training under tf.train.Supervisor with v1 summaries written by a FileWriter, a Saver,
and the meta graph exported, imported into a fresh graph and restored."""
import glob
import os
import sys

import numpy as np
import tensorflow as tf

log_dir = sys.argv[1]
rng = np.random.RandomState(4)
data_x = rng.rand(32, 3).astype(np.float32)
data_y = data_x.dot(np.array([[2.0], [-1.0], [0.5]], dtype=np.float32))

with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    prediction = tf.identity(tf.matmul(x, w), name="prediction")
    loss = tf.reduce_mean(tf.square(prediction - y), name="loss")
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=global_step)
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("weights", w)
    tf.summary.image("weights_image", tf.reshape(w, [1, 3, 1, 1]))
    summary_op = tf.summary.merge_all()
    tf.add_to_collection("train_op", train_op)

    sv = tf.train.Supervisor(logdir=log_dir, summary_op=None, save_model_secs=0,
                             save_summaries_secs=0, global_step=global_step)
    with sv.managed_session() as sess:
        for _ in range(12):
            if sv.should_stop():
                break
            _, summary = sess.run([train_op, summary_op], {x: data_x, y: data_y})
            step = sess.run(global_step)
            if step % 4 == 0:
                sv.summary_computed(sess, summary, global_step=step)
        final_loss = sess.run(loss, {x: data_x, y: data_y})
        sv.saver.save(sess, os.path.join(log_dir, "model.ckpt"), global_step=global_step)
        tf.train.export_meta_graph(os.path.join(log_dir, "exported.meta"))
    print("final loss: %.4f" % final_loss)

    writer = tf.summary.FileWriter(os.path.join(log_dir, "extra"), graph=tf.get_default_graph())
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="note", simple_value=1.5)]), 1)
    writer.flush()
    writer.close()

steps = {}
for path in sorted(glob.glob(os.path.join(log_dir, "events.out.tfevents.*"))):
    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            steps.setdefault(value.tag, []).append(event.step)
print("summaries:", sorted((tag, tag_steps) for tag, tag_steps in steps.items()))
extra = glob.glob(os.path.join(log_dir, "extra", "events.out.tfevents.*"))
kinds = [event.WhichOneof("what") for event in tf.train.summary_iterator(extra[0])]
print("extra events:", kinds)

checkpoint = tf.train.latest_checkpoint(log_dir)
print("checkpoint:", os.path.basename(checkpoint))
with tf.Graph().as_default():
    saver = tf.train.import_meta_graph(os.path.join(log_dir, "exported.meta"))
    with tf.Session() as sess:
        saver.restore(sess, checkpoint)
        graph = tf.get_default_graph()
        restored = sess.run(graph.get_tensor_by_name("loss:0"),
                            {graph.get_tensor_by_name("x:0"): data_x,
                             graph.get_tensor_by_name("y:0"): data_y})
        print("restored loss equal:", bool(abs(restored - final_loss) < 1e-6),
              "train ops:", len(tf.get_collection("train_op")))
        print("weights:", np.round(sess.run("w:0").ravel().astype(np.float64), 3).tolist())
