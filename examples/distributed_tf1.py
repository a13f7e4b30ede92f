"""TF1 form of distributed training on the digits: between-graph replication.

The classic TF1 layout: ps tasks hold the variables, every worker builds its
own graph (`replica_device_setter` puts variables on the ps tasks) and runs
asynchronous SGD steps on its share of the data; the global step on the ps
counts every worker's steps. It takes TF1's own flags, so it runs as written:

    tf1compat launch --ps 1 --workers 2 --tf1-flags -m examples.distributed_tf1 --epochs 5

(without those flags it reads TF_CONFIG). Each worker writes
`<result-dir>/worker-<i>.json`; worker 0 (the chief) also evaluates the shared
model once every worker has finished.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from examples.data import load

HIDDEN = 64


def build_graph(tf, features: int, classes: int, learning_rate: float, seed: int):
    """The model as TF1 code: placeholders, get_variable, a GradientDescent train op."""
    v1 = tf.compat.v1
    v1.set_random_seed(seed)
    x = v1.placeholder(tf.float32, [None, features], name="x")
    y = v1.placeholder(tf.int32, [None], name="y")
    init = v1.glorot_uniform_initializer(seed=seed)
    w1 = v1.get_variable("w1", [features, HIDDEN], initializer=init)
    b1 = v1.get_variable("b1", [HIDDEN], initializer=v1.zeros_initializer())
    w2 = v1.get_variable("w2", [HIDDEN, classes], initializer=init)
    b2 = v1.get_variable("b2", [classes], initializer=v1.zeros_initializer())
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y),
                                      tf.float32))
    global_step = v1.train.get_or_create_global_step()
    finished = v1.get_variable("workers_finished", [], tf.int32, v1.zeros_initializer(),
                               trainable=False)
    train_op = v1.train.MomentumOptimizer(learning_rate, 0.9).minimize(loss, global_step)
    return dict(x=x, y=y, loss=loss, accuracy=accuracy, global_step=global_step,
                train_op=train_op, finished=finished, mark_finished=finished.assign_add(1),
                init=v1.global_variables_initializer())


def cluster_from_flags(args):
    from tf1compat import cluster as tf1_cluster
    from tf1compat.shared.cluster_spec import Cluster

    if args.job_name:
        jobs = {"ps": args.ps_hosts.split(","), "worker": args.worker_hosts.split(",")}
        return Cluster(jobs, args.job_name, args.task_index)
    return tf1_cluster.from_environment()


def _wait(sess, tensor, done, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not done(sess.run(tensor)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.1)


def train(args) -> dict:
    import tensorflow as tf

    from tf1compat import cluster as tf1_cluster

    me = cluster_from_flags(args)
    if me.task_type == "ps":
        tf1_cluster.join(me, None, None, None, intra_op_threads=1, inter_op_threads=1)
    workers = me.num_tasks("worker")
    x_train, y_train, x_test, y_test = load(args.data, seed=args.seed)
    shard_x, shard_y = x_train[me.task_index::workers], y_train[me.task_index::workers]
    classes = int(max(y_train.max(), y_test.max()) + 1)
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.device(tf1_cluster.replica_device_setter(me)):
        model = build_graph(tf, x_train.shape[1], classes, args.learning_rate, args.seed)
    rng = np.random.default_rng(args.seed + me.task_index)
    epochs, local_steps = [], 0
    with tf1_cluster.session(me, None, None, None, graph=graph, intra_op_threads=1,
                             inter_op_threads=1) as sess:
        if me.is_chief:
            sess.run(model["init"])
        else:
            _wait(sess, tf.compat.v1.report_uninitialized_variables(),
                  lambda names: len(names) == 0, 120, "the chief to initialise the variables")
        start = time.perf_counter()
        for epoch in range(args.epochs):
            order = rng.permutation(len(shard_x))
            losses = []
            for begin in range(0, len(order), args.batch_size):
                batch = order[begin:begin + args.batch_size]
                _, loss = sess.run([model["train_op"], model["loss"]],
                                   {model["x"]: shard_x[batch], model["y"]: shard_y[batch]})
                losses.append(loss)
                local_steps += 1
            accuracy = float(sess.run(model["accuracy"], {model["x"]: x_test, model["y"]: y_test}))
            epochs.append({"epoch": epoch, "loss": float(np.mean(losses)), "accuracy": accuracy})
            print(f"epoch {epoch} done: loss {np.mean(losses):.4f} test accuracy {accuracy:.4f} "
                  f"global step {int(sess.run(model['global_step']))}", flush=True)
        seconds = time.perf_counter() - start
        sess.run(model["mark_finished"])
        result = {"form": "tf1", "mode": "between_graph", "task": me.task, "workers": workers,
                  "epochs": epochs, "local_steps": local_steps, "train_seconds": seconds,
                  "examples_per_second": args.epochs * len(shard_x) / seconds}
        if me.is_chief:  # the shared model, once every worker is done
            _wait(sess, model["finished"], lambda n: n >= workers, 300,
                  "every worker to finish")
            result["final_accuracy"] = float(sess.run(model["accuracy"],
                                                      {model["x"]: x_test, model["y"]: y_test}))
            result["global_step"] = int(sess.run(model["global_step"]))
    return result


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--job_name", help="TF1 flag: ps or worker")
    parser.add_argument("--task_index", type=int, default=0, help="TF1 flag")
    parser.add_argument("--ps_hosts", default="", help="TF1 flag: host:port,host:port")
    parser.add_argument("--worker_hosts", default="", help="TF1 flag: host:port,host:port")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", help="a local .npz (x_train, y_train, x_test, y_test)")
    parser.add_argument("--result-dir", default="distributed-results")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    result = train(args)
    os.makedirs(args.result_dir, exist_ok=True)
    path = os.path.join(args.result_dir, result["task"].replace(":", "-") + ".json")
    with open(path + ".tmp", "w") as handle:
        json.dump(result, handle)
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
