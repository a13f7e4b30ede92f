"""A TF1 between-graph script (1 ps + 2 workers, flag-style) under `launch --slurm` inside
salloc, through `tf1compat run` in each task: the same numbers as the local `launch` run.

The workers train one linear model whose variables live on the ps, taking turns (a turn
counter on the ps), so the result does not depend on which worker is faster and both runs
must give the same weights and loss.
"""

import ast
import re

import numpy as np
import pytest

from launch_helpers import finish, kill_group, kill_tasks, start, task_pids, wait_gone, \
    write_script
from slurm_helpers import RUN_MARK, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster, pytest.mark.timeout(400)]

TURNS = """
    import json, os, time
    import numpy as np
    import tensorflow as tf

    flags = tf.app.flags
    flags.DEFINE_string("job_name", "", "ps or worker")
    flags.DEFINE_integer("task_index", 0, "index of the task in its job")
    flags.DEFINE_string("ps_hosts", "", "host:port,...")
    flags.DEFINE_string("worker_hosts", "", "host:port,...")
    FLAGS = flags.FLAGS
    STEPS = 4  # per worker

    def main(_):
        workers = FLAGS.worker_hosts.split(",")
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": workers})
        me = "/job:worker/task:%d" % FLAGS.task_index
        config = tf.ConfigProto(device_filters=["/job:ps", me])
        server = tf.train.Server(cluster, job_name=FLAGS.job_name,
                                 task_index=FLAGS.task_index, config=config)
        from tf1compat.launch.bindhost import listening_addresses

        port = int(cluster.task_address(FLAGS.job_name, FLAGS.task_index).rsplit(":", 1)[1])
        print("script", os.getpid(), "listens on", listening_addresses(port), flush=True)
        if FLAGS.job_name == "ps":
            server.join()
        data = np.random.RandomState(FLAGS.task_index).normal(size=(16, 3)).astype("float32")
        target = data @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.25
        with tf.device(tf.train.replica_device_setter(worker_device=me, cluster=cluster)):
            weights = tf.Variable(tf.zeros([3, 1]), name="weights")
            bias = tf.Variable(0.0, name="bias")
            turn = tf.Variable(0, name="turn")
            loss = tf.reduce_mean(tf.square(tf.matmul(data, weights) + bias - target))
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.control_dependencies([train]):
                step = tf.assign_add(turn, 1)
            ready = tf.is_variable_initialized(turn)
        with tf.Session(server.target, config=config) as session:
            if FLAGS.task_index == 0:
                session.run(tf.global_variables_initializer())
            deadline = time.monotonic() + 240
            def wait_for(value):
                while session.run(turn) < value:
                    if time.monotonic() > deadline:
                        raise SystemExit("turn %d never came" % value)
                    time.sleep(0.01)
            if FLAGS.task_index != 0:  # wait until worker 0 has initialised the variables
                while not session.run(ready):
                    time.sleep(0.01)
            for k in range(STEPS):
                wait_for(len(workers) * k + FLAGS.task_index)
                session.run(step)
            wait_for(len(workers) * STEPS)
            w, b = session.run([weights, bias])
            print("result", json.dumps({"weights": w.ravel().tolist(), "bias": float(b),
                                        "loss": float(session.run(loss))}), flush=True)

    tf.app.run(main)
"""

LAYOUT = ("--ps", "1", "--workers", "2", "--tf1-flags", "--grace", "5")


def _results(lines):
    import json

    found = {}
    for line in lines:
        match = re.match(r"^\[(worker:\d)\] result (\{.*\})$", line)
        if match:
            found[match.group(1)] = json.loads(match.group(2))
    return found


def _script_pids(lines):
    return [int(m.group(1)) for m in (re.search(r"\] script (\d+) listens", line)
                                      for line in lines) if m]


def _run(process, lines):
    try:
        status = finish(process, 150, lines)
        assert status == 0, "\n".join(lines[-60:])
        pids = list(task_pids(lines).values()) + _script_pids(lines)
        assert len(task_pids(lines)) == 3
        assert wait_gone(pids, 10) == [], "a task outlived the run"
        return _results(lines)
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_between_graph_training_on_slurm_gives_the_local_runs_numbers(slurm_cluster, tmp_path):
    script = str(write_script(tmp_path, "turns.py", TURNS))
    program = ("-m", "tf1compat.cli.main", "run", "--no-report", script)
    local_lines, slurm_lines = [], []
    local = _run(start(*LAYOUT, *program), local_lines)
    env = launch_env(slurm_cluster)
    on_slurm = _run(salloc_launch(slurm_cluster, 3, "--slurm", *LAYOUT, *program, env=env),
                    slurm_lines)
    assert sorted(local) == sorted(on_slurm) == ["worker:0", "worker:1"], \
        "\n".join(slurm_lines[-40:])
    for side in (local, on_slurm):  # both workers read the same variables at the end
        assert side["worker:0"]["weights"] == side["worker:1"]["weights"]
        assert side["worker:0"]["bias"] == side["worker:1"]["bias"]
    for worker in ("worker:0", "worker:1"):  # each its loss on its own data
        expected, got = local[worker], on_slurm[worker]
        np.testing.assert_allclose(got["weights"], expected["weights"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose([got["bias"], got["loss"]],
                                   [expected["bias"], expected["loss"]], rtol=1e-5, atol=1e-6)
        assert got["loss"] < 2.0  # it trained (the loss at zero weights is above 5)
    # Servers listen on the node's address only (`vm` is 127.0.0.1 here), not 0.0.0.0.
    # (TensorFlow binds IPv6; the shim gives it the IPv4-mapped loopback address.)
    listens = [ast.literal_eval(line.split(" listens on ", 1)[1]) for line in slurm_lines
               if " listens on " in line]
    assert len(listens) == 3 and all(
        addresses and set(addresses) <= {"127.0.0.1", "::ffff:127.0.0.1"}
        for addresses in listens), listens
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(slurm_cluster.queue, 10) == []
