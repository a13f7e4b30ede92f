"""TF2 form of distributed training on the digits, run once per task by `tf1compat launch`.

Synchronous (MultiWorkerMirroredStrategy, Keras `fit`, BackupAndRestore):

    tf1compat launch --workers 2 -m examples.distributed_tf2 mwms --epochs 5

Asynchronous (ParameterServerStrategy + ClusterCoordinator, custom steps):

    tf1compat launch --chief --ps 1 --workers 2 -m examples.distributed_tf2 ps --epochs 5

Each task writes `<result-dir>/<job>-<index>.json` (per-epoch loss/accuracy,
final test accuracy, a digest of the weights after every epoch); the driver
in `examples.distributed` reads them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

import numpy as np

from examples.data import load

HIDDEN = 64


def _write(result_dir: str, task: str, result: dict) -> None:
    os.makedirs(result_dir, exist_ok=True)
    path = os.path.join(result_dir, task.replace(":", "-") + ".json")
    temporary = path + ".tmp"
    with open(temporary, "w") as handle:
        json.dump(result, handle)
    os.replace(temporary, path)


def weights_digest(weights) -> str:
    digest = hashlib.sha256()
    for array in weights:
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def build_model(keras, features: int, classes: int, seed: int):
    keras.utils.set_random_seed(seed)
    return keras.Sequential([
        keras.Input((features,)),
        keras.layers.Dense(HIDDEN, activation="relu"),
        keras.layers.Dense(classes),
    ])


def multi_worker_mirrored(args) -> dict:
    """Keras fit under MultiWorkerMirroredStrategy; resumes from `--backup-dir` after a failure."""
    import keras
    import tensorflow as tf

    from modern import cluster
    from modern.fault_tolerance import BackupAndRestore

    strategy = cluster.multi_worker_mirrored(intra_op_threads=1, inter_op_threads=1)
    me = cluster.from_environment()
    x_train, y_train, x_test, y_test = load(args.data, seed=args.seed)
    classes = int(max(y_train.max(), y_test.max()) + 1)
    global_batch = args.batch_size * strategy.num_replicas_in_sync
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    train = tf.data.Dataset.from_tensor_slices((x_train, y_train)) \
        .shuffle(len(x_train), seed=args.seed, reshuffle_each_iteration=True) \
        .batch(global_batch).with_options(options)
    with strategy.scope():
        model = build_model(keras, x_train.shape[1], classes, args.seed)
        model.compile(optimizer=keras.optimizers.SGD(args.learning_rate, momentum=0.9),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    backup = BackupAndRestore(args.backup_dir, delete_checkpoint=False)
    digests, epochs_run = {}, []
    attempt = int(os.environ.get("TF1COMPAT_LAUNCH_ATTEMPT", "1"))

    class Record(keras.callbacks.Callback):
        """After the backup of an epoch: its weight digest, and a line in --epoch-log."""

        def on_train_begin(self, logs=None):  # after BackupAndRestore has restored
            print(f"training starts at epoch {backup.restored_epoch} (attempt {attempt})",
                  flush=True)

        def on_epoch_end(self, epoch, logs=None):
            digests[int(epoch)] = weights_digest(self.model.get_weights())
            epochs_run.append(int(epoch))
            if args.epoch_log and me.is_chief:
                with open(args.epoch_log, "a") as handle:
                    handle.write(json.dumps({"attempt": attempt, "epoch": int(epoch),
                                             "time": time.time()}) + "\n")
            print(f"epoch {epoch} done: loss {logs['loss']:.4f} test accuracy "
                  f"{logs['val_accuracy']:.4f} weights {digests[int(epoch)]}", flush=True)
            if args.pause > 0:
                time.sleep(args.pause)

    start = time.perf_counter()
    test = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch) \
        .with_options(options)
    model.fit(train, epochs=args.epochs, validation_data=test, callbacks=[backup, Record()],
              verbose=0, shuffle=False)
    seconds = time.perf_counter() - start
    logits = model.predict(x_test, batch_size=256, verbose=0)
    accuracy = float(np.mean(np.argmax(logits, axis=1) == y_test))
    return {
        "form": "tf2", "mode": "multi_worker_mirrored", "task": me.task,
        "workers": strategy.num_replicas_in_sync, "attempt": attempt,
        "restored_epoch": backup.restored_epoch, "epochs_run": epochs_run,
        "epochs": [{"epoch": h["epoch"], "loss": h["loss"], "accuracy": h["val_accuracy"],
                    "train_accuracy": h["accuracy"]} for h in backup.history],
        "final_accuracy": accuracy, "weights_digests": {str(k): v for k, v in digests.items()},
        "train_seconds": seconds,
        "examples_per_second": len(epochs_run) * len(x_train) / seconds if epochs_run else 0.0,
    }


def parameter_server(args) -> dict:
    """Asynchronous steps scheduled by the chief on the workers; variables on the ps tasks."""
    import keras
    import tensorflow as tf

    from modern import cluster

    strategy = cluster.parameter_server()  # ps and worker tasks serve here and never return
    coordinator = cluster.coordinator(strategy)
    x_train, y_train, x_test, y_test = load(args.data, seed=args.seed)
    classes = int(max(y_train.max(), y_test.max()) + 1)
    steps_per_epoch = max(1, len(x_train) // args.batch_size)
    with strategy.scope():
        model = build_model(keras, x_train.shape[1], classes, args.seed)
        optimizer = keras.optimizers.SGD(args.learning_rate, momentum=0.9)
        global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
        workers = len(cluster.from_environment().addresses("worker"))
        worker_steps = tf.Variable(tf.zeros([workers], tf.int64), trainable=False,
                                   name="worker_steps")
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def dataset_fn(context):
        return tf.data.Dataset.from_tensor_slices((x_train, y_train)).repeat() \
            .shuffle(len(x_train), seed=args.seed + context.input_pipeline_id) \
            .batch(args.batch_size)

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(dataset_fn)

    iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))

    @tf.function
    def train_step(batches):
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            global_step.assign_add(1)
            worker = tf.distribute.coordinator.experimental_get_current_worker_index()
            worker_steps.assign_add(tf.one_hot(worker, workers, dtype=tf.int64))
            return loss

        x, y = next(batches)
        return strategy.run(step, args=(x, y))

    epochs = []
    start = time.perf_counter()
    for epoch in range(args.epochs):
        losses = [coordinator.schedule(train_step, args=(iterator,))
                  for _ in range(steps_per_epoch)]
        coordinator.join()
        loss = float(np.mean([value.fetch() for value in losses]))
        accuracy = float(np.mean(np.argmax(model(x_test).numpy(), axis=1) == y_test))
        epochs.append({"epoch": epoch, "loss": loss, "accuracy": accuracy})
        print(f"epoch {epoch} done: loss {loss:.4f} test accuracy {accuracy:.4f} "
              f"global step {int(global_step.numpy())}", flush=True)
    seconds = time.perf_counter() - start
    return {
        "form": "tf2", "mode": "parameter_server", "task": "chief:0",
        "workers": workers, "epochs": epochs, "final_accuracy": epochs[-1]["accuracy"],
        "global_step": int(global_step.numpy()),
        "worker_steps": [int(n) for n in worker_steps.numpy()], "steps_scheduled": steps_per_epoch * args.epochs,
        "train_seconds": seconds,
        "examples_per_second": steps_per_epoch * args.epochs * args.batch_size / seconds,
    }


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["mwms", "ps"])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32, help="per replica")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", help="a local .npz (x_train, y_train, x_test, y_test)")
    parser.add_argument("--result-dir", default="distributed-results")
    parser.add_argument("--backup-dir", default="distributed-backup",
                        help="storage every task sees: a shared folder, or hdfs://...")
    parser.add_argument("--epoch-log", help="the chief appends one JSON line per finished epoch")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="sleep after each epoch (tests use it to kill a worker mid-run)")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    result = multi_worker_mirrored(args) if args.mode == "mwms" else parameter_server(args)
    _write(args.result_dir, result["task"], result)


if __name__ == "__main__":
    main()
