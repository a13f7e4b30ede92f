"""Training scripts that several launch tests run: locally, under Slurm, as TFJob replicas.

TURNS: a TF1 between-graph script (flag-style: --job_name --task_index --ps_hosts
--worker_hosts) whose workers train one linear model on the ps, taking turns (a turn counter
on the ps), so the result does not depend on which worker is faster: every run of the same
layout gives the same weights and loss, also under TF 1.15 (`tf115_turns`). Each worker prints
`result {json}`.

TUTORIAL: the pattern of TensorFlow's "Multi-worker training with Keras" tutorial
(MultiWorkerMirroredStrategy, a model compiled in `strategy.scope()`, `model.fit`) on
synthetic MNIST-shaped data; it knows nothing of tf1compat. Each worker writes its final
weights to `ARGV[1]/worker-<index>.npz` and prints `losses [...]`.
"""

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
        try:  # the tests' look at the server; TF 1.15's interpreter has no tf1compat
            from tf1compat.launch.bindhost import listening_addresses
        except ImportError:
            listening_addresses = None
        if listening_addresses:
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


TUTORIAL = """
    import json, os, sys

    import numpy as np
    import tensorflow as tf

    def mnist_like_dataset(batch_size):
        rng = np.random.default_rng(0)
        x_train = rng.random((512, 28, 28), dtype=np.float32)
        y_train = (x_train[:, :14].sum(axis=(1, 2)) > x_train[:, 14:].sum(axis=(1, 2)))
        train_dataset = tf.data.Dataset.from_tensor_slices(
            (x_train, y_train.astype(np.int64))).shuffle(512, seed=1).repeat().batch(batch_size)
        return train_dataset

    def build_and_compile_cnn_model():
        model = tf.keras.Sequential([
            tf.keras.layers.InputLayer(input_shape=(28, 28)),
            tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
            tf.keras.layers.Conv2D(8, 3, activation="relu"),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(32, activation="relu"),
            tf.keras.layers.Dense(10),
        ])
        model.compile(
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            optimizer=tf.keras.optimizers.SGD(learning_rate=0.01),
            metrics=["accuracy"])
        return model

    per_worker_batch_size = 32
    tf_config = json.loads(os.environ["TF_CONFIG"])
    num_workers = len(tf_config["cluster"]["worker"])

    strategy = tf.distribute.MultiWorkerMirroredStrategy()

    global_batch_size = per_worker_batch_size * num_workers
    multi_worker_dataset = mnist_like_dataset(global_batch_size)

    with strategy.scope():
        multi_worker_model = build_and_compile_cnn_model()

    history = multi_worker_model.fit(multi_worker_dataset, epochs=2, steps_per_epoch=5,
                                     verbose=0)
    index = tf_config["task"]["index"]
    np.savez(os.path.join(sys.argv[1], f"worker-{index}.npz"),
             *multi_worker_model.get_weights())
    print("losses", json.dumps(history.history["loss"]))
"""


def turns_results(lines) -> dict:
    """{"worker:i": {"weights", "bias", "loss"}} from the `[worker:i] result {...}` lines."""
    import json
    import re

    found = {}
    for line in lines:
        match = re.match(r"^\[(worker:\d)\] result (\{.*\})$", line)
        if match:
            found[match.group(1)] = json.loads(match.group(2))
    return found


def tf115_turns(tmp_path, script) -> dict:
    """TURNS (at `script`) as a 1 ps + 2 workers cluster under TF 1.15, from its record
    (tests/tf1_reference/tf1_cluster.py starts the tasks as TF1 users did); turns_results."""
    import os

    from estimator.reference import needs_tf1
    from tf1_reference import recorded
    from tf1_reference.recorded import REPO_ROOT

    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "TF_CONFIG", "TF2_BEHAVIOR")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    driver = REPO_ROOT / "tests" / "tf1_reference" / "tf1_cluster.py"
    result = recorded.run(needs_tf1(), [str(driver), "--ps", "1", "--workers", "2", str(script)],
                          cwd=tmp_path, env=env, timeout=400, outputs=())
    assert result.returncode == 0, f"TF 1.15 cluster failed:\n{result.stderr[-4000:]}"
    return turns_results(result.stdout.splitlines())
