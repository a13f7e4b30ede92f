"""TF1 between-graph training whose data and checkpoints are on hdfs:// (flag-style: 1 ps and
N workers, as `tf1compat launch --ps 1 --workers N --tf1-flags` starts it).

The workers take turns, the global step saying whose turn it is, and turn t trains on --batch
rows of --data starting at row (t * 7919) mod (rows - batch), read from the file for that turn:
every run of the same layout gives the same weights, also one that resumed from a checkpoint
half-way. Worker 0 is the chief of a MonitoredTrainingSession that writes a checkpoint to
--checkpoint_dir every --save_steps steps and restores the last one when the job starts again.

Each worker prints `turn T attempt A` for each turn it trains, and at the end
`result {"weights", "bias", "global_step"}`. Runs unchanged under TensorFlow 1.15 (given an
hdfs:// it can read) and `tf1compat run`.
"""
import json
import os
import time

import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "ps or worker")
flags.DEFINE_integer("task_index", 0, "index of the task in its job")
flags.DEFINE_string("ps_hosts", "", "host:port,...")
flags.DEFINE_string("worker_hosts", "", "host:port,...")
flags.DEFINE_string("data", "", "CSV rows x1,x2,x3,y")
flags.DEFINE_string("checkpoint_dir", "", "where the chief saves and every start restores")
flags.DEFINE_integer("steps", 24, "turns in all")
flags.DEFINE_integer("save_steps", 4, "a checkpoint every this many steps")
flags.DEFINE_integer("batch", 64, "rows per turn")
flags.DEFINE_float("pause", 0.0, "seconds to wait before each turn")
FLAGS = flags.FLAGS
STRIDE = 7919


def main(_):
    workers = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": workers})
    me = "/job:worker/task:%d" % FLAGS.task_index
    config = tf.ConfigProto(device_filters=["/job:ps", me])
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index,
                             config=config)
    if FLAGS.job_name == "ps":
        server.join()
    with tf.gfile.GFile(FLAGS.data) as handle:
        rows = len(handle.read().splitlines())
    with tf.device(tf.train.replica_device_setter(worker_device=me, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        weights = tf.get_variable("weights", [3, 1], initializer=tf.zeros_initializer())
        bias = tf.get_variable("bias", [], initializer=tf.zeros_initializer())
        start = tf.placeholder(tf.int64, [])
        lines = tf.data.TextLineDataset(FLAGS.data).skip(start).take(FLAGS.batch) \
            .batch(FLAGS.batch)
        iterator = tf.data.make_initializable_iterator(lines)
        columns = tf.decode_csv(iterator.get_next(), [[0.0]] * 4)
        x, y = tf.stack(columns[:3], axis=1), tf.expand_dims(columns[3], 1)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, weights) + bias - y))
        train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=global_step)
    attempt = os.environ.get("TF1COMPAT_LAUNCH_ATTEMPT", "1")
    with tf.train.MonitoredTrainingSession(
            master=server.target, is_chief=FLAGS.task_index == 0,
            checkpoint_dir=FLAGS.checkpoint_dir, save_checkpoint_steps=FLAGS.save_steps,
            save_summaries_steps=None, save_summaries_secs=None, log_step_count_steps=None,
            config=config) as session:
        turn = session.run(global_step)
        while turn < FLAGS.steps:
            if turn % len(workers) != FLAGS.task_index:
                time.sleep(0.01)
                turn = session.run(global_step)
                continue
            time.sleep(FLAGS.pause)
            session.run(iterator.initializer, {start: turn * STRIDE % (rows - FLAGS.batch)})
            session.run(train)
            print("turn %d attempt %s" % (turn, attempt), flush=True)
            turn = session.run(global_step)
        w, b = session.run([weights, bias])
    print("result", json.dumps({"weights": w.ravel().tolist(), "bias": float(b),
                                "global_step": int(turn)}), flush=True)


if __name__ == "__main__":
    tf.app.run(main)
