"""TF1: between-graph replication in one process: a ps and a worker server, variables placed by
replica_device_setter and by a device function reading each op's NodeDef, device_filters,
SyncReplicasOptimizer under MonitoredTrainingSession with hooks and checkpoints."""
import socket
import sys

import numpy as np
import tensorflow as tf

checkpoint_dir = sys.argv[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


cluster = tf.train.ClusterSpec({"ps": ["127.0.0.1:%d" % free_port()],
                                "worker": ["127.0.0.1:%d" % free_port()]})
ps_server = tf.train.Server(cluster, job_name="ps", task_index=0)
server = tf.train.Server(cluster, job_name="worker", task_index=0)


def stats_device(op):
    """Variables of the 'stats' scope on the ps, every other op on the worker."""
    node = op.node_def
    if node.op in ("Variable", "VariableV2", "VarHandleOp"):
        return "/job:ps/task:0"
    return "/job:worker/task:0"


rng = np.random.RandomState(9)
features = rng.rand(16, 2).astype(np.float32)
labels = features.dot(np.array([[3.0], [-2.0]], dtype=np.float32)) + 1.0

with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:0",
                                              cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(features), w) + b - labels))
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.2),
                                         replicas_to_aggregate=1, total_num_replicas=1)
    train_op = opt.minimize(loss, global_step=global_step)
with tf.device(stats_device), tf.variable_scope("stats"):
    loss_sum = tf.get_variable("loss_sum", [], initializer=tf.zeros_initializer())
    add_loss = tf.assign_add(loss_sum, loss)
    mean_loss = tf.div(loss_sum, tf.cast(global_step, tf.float32) + 1.0)
print("w on", w.device, "| loss_sum on", loss_sum.device, "| mean on", mean_loss.device)


class LossHistory(tf.train.SessionRunHook):
    def __init__(self):
        self.steps = 0

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(global_step)

    def after_run(self, run_context, run_values):
        self.steps += 1


history = LossHistory()
hooks = [opt.make_session_run_hook(is_chief=True), tf.train.StopAtStepHook(last_step=20),
         tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=10), history]
config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:0"])
# SyncReplicasOptimizer's chief queue runner waits for gradients that never come once
# training stops; a short grace period ends the session instead of waiting 120 s.
with tf.train.MonitoredTrainingSession(master=server.target, is_chief=True,
                                       checkpoint_dir=checkpoint_dir, hooks=hooks,
                                       config=config, save_summaries_steps=None,
                                       stop_grace_period_secs=1) as sess:
    while not sess.should_stop():
        sess.run([train_op, add_loss])
print("hook saw at least 20 runs:", history.steps >= 20)
reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(checkpoint_dir))
print("checkpoint global step:", reader.get_tensor("global_step"))
print("w: %s" % np.round(reader.get_tensor("w").ravel().astype(np.float64), 2).tolist())
