"""The model the training examples share, and the same training written five ways.

A 64-32-10 perceptron on the digits, started from the same NumPy weights and
fed the same batches in the same order, trained by plain SGD. Batches are
split evenly over the towers or replicas, and each way averages gradients
over the whole global batch, so every way computes the same updates; what
differs is only float rounding, which the examples' tolerances allow.

TF1 (tf1compat): `train_tf1(devices)` — one tower per device, the multi-tower
step of `tf1compat.towers` (a single device is the baseline loop).
TF2 (modern): `train_baseline` (one device, GradientTape), `train_fit`
(Keras `fit` under a strategy) and `train_custom` (the custom distributed
loop: per-example loss, `compute_average_loss`, `strategy.run`, `reduce`).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from examples import common, data

HIDDEN = 32
CLASSES = 10
LEARNING_RATE = 0.1
GLOBAL_BATCH = 64


def initial_weights(inputs: int, seed: int = 1) -> list[np.ndarray]:
    """Glorot-uniform kernels and zero biases, [W1, b1, W2, b2]."""
    rng = np.random.default_rng(seed)

    def glorot(fan_in, fan_out):
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-limit, limit, size=(fan_in, fan_out)).astype(np.float32)

    return [glorot(inputs, HIDDEN), np.zeros(HIDDEN, np.float32),
            glorot(HIDDEN, CLASSES), np.zeros(CLASSES, np.float32)]


def epoch_batches(x: np.ndarray, y: np.ndarray, epoch: int, seed: int = 2):
    """The epoch's batches: a seeded permutation, full batches only."""
    order = np.random.default_rng(seed + epoch).permutation(len(x))
    for start in range(0, len(x) - GLOBAL_BATCH + 1, GLOBAL_BATCH):
        index = order[start:start + GLOBAL_BATCH]
        yield x[index], y[index]


def load(settings: common.Settings):
    x_train, y_train, x_test, y_test = data.load(settings.data)
    if settings.size == "small" and settings.data is None:
        x_train, y_train = x_train[:1024], y_train[:1024]
    return x_train, y_train, x_test, y_test


def history_result(history: dict, label: str) -> dict:
    final = history["test_accuracy"][-1]
    return {"summary": f"{label}: loss {history['loss'][-1]:.4f}, test accuracy {final:.3f} "
                       f"after {len(history['loss'])} epochs",
            "values": {"loss": history["loss"], "accuracy": history["accuracy"],
                       "test_accuracy": history["test_accuracy"]},
            "history": history}


def agree_training(tf1_result: dict, tf2_result: dict):
    """Same data, seeds and epochs: per-epoch loss within 1e-3, accuracies within 0.01."""
    return common.close(tf1_result, tf2_result,
                        {"loss": 1e-3, "accuracy": 0.01, "test_accuracy": 0.01})


# -- TF1 ---------------------------------------------------------------------

def train_tf1(settings: common.Settings, towers_count: int) -> dict:
    """Multi-tower SGD in a TF1 session, one tower per logical CPU (1 = the baseline)."""
    import tensorflow as tf

    import tf1compat
    from tf1compat import towers

    x_train, y_train, x_test, y_test = load(settings)
    start = initial_weights(x_train.shape[1])
    devices = [f"/cpu:{i}" for i in range(towers_count)]

    def logits_of(features):
        w1 = tf.compat.v1.get_variable("w1", initializer=start[0])
        b1 = tf.compat.v1.get_variable("b1", initializer=start[1])
        w2 = tf.compat.v1.get_variable("w2", initializer=start[2])
        b2 = tf.compat.v1.get_variable("b2", initializer=start[3])
        hidden = tf.nn.relu(tf.matmul(features, w1) + b1)
        return tf.matmul(hidden, w2) + b2

    correct = []

    def tower_loss(inputs):
        features, labels = inputs
        logits = logits_of(features)
        correct.append(tf.reduce_sum(tf.cast(
            tf.equal(tf.argmax(logits, 1, output_type=tf.int32), labels), tf.float32)))
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=labels, logits=logits))

    history = {"loss": [], "accuracy": [], "test_accuracy": []}
    with tf1compat.session(cpus=max(towers_count, 1)) as sess:
        x = tf.compat.v1.placeholder(tf.float32, [GLOBAL_BATCH, x_train.shape[1]])
        y = tf.compat.v1.placeholder(tf.int32, [GLOBAL_BATCH])
        shards = list(zip(towers.split_batch(x, towers_count), towers.split_batch(y, towers_count)))
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(LEARNING_RATE)
        train_op, mean_loss, _ = towers.tower_train_step(tower_loss, optimizer, shards, devices)
        batch_correct = tf.add_n(correct)
        test_x = tf.constant(x_test)
        with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(), reuse=True):
            test_predictions = tf.argmax(logits_of(test_x), 1, output_type=tf.int32)
        sess.run(tf.compat.v1.global_variables_initializer())
        for epoch in range(settings.epochs_or(3, 10)):
            losses, hits, seen = [], 0.0, 0
            for features, labels in epoch_batches(x_train, y_train, epoch):
                _, loss, hit = sess.run([train_op, mean_loss, batch_correct],
                                        {x: features, y: labels})
                losses.append(float(loss))
                hits, seen = hits + float(hit), seen + len(labels)
            history["loss"].append(float(np.mean(losses)))
            history["accuracy"].append(hits / seen)
            history["test_accuracy"].append(float(np.mean(sess.run(test_predictions) == y_test)))
    return history_result(history, f"TF1 session, {towers_count} tower(s)")


# -- TF2 ---------------------------------------------------------------------

def _model(inputs: int):
    import keras

    model = keras.Sequential([keras.Input((inputs,)),
                              keras.layers.Dense(HIDDEN, activation="relu"),
                              keras.layers.Dense(CLASSES)])
    model.set_weights(initial_weights(inputs))
    return model


def _test_accuracy(model, x_test, y_test) -> float:
    logits = model(x_test, training=False)
    return float(np.mean(np.argmax(np.asarray(logits), axis=1) == y_test))


def _dataset(x_train, y_train, epochs: int):
    import tensorflow as tf

    def batches():
        for epoch in range(epochs):
            yield from epoch_batches(x_train, y_train, epoch)

    signature = (tf.TensorSpec([GLOBAL_BATCH, x_train.shape[1]], tf.float32),
                 tf.TensorSpec([GLOBAL_BATCH], tf.int32))
    return tf.data.Dataset.from_generator(batches, output_signature=signature)


def train_baseline(settings: common.Settings) -> dict:
    """One device, a GradientTape step in a tf.function: the seeds' single-device loop."""
    import keras
    import tensorflow as tf

    x_train, y_train, x_test, y_test = load(settings)
    model = _model(x_train.shape[1])
    optimizer = keras.optimizers.SGD(LEARNING_RATE)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    accuracy = keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def step(features, labels):
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            loss = loss_fn(labels, logits)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                      model.trainable_variables))
        accuracy.update_state(labels, logits)
        return loss

    history = {"loss": [], "accuracy": [], "test_accuracy": []}
    for epoch in range(settings.epochs_or(3, 10)):
        accuracy.reset_state()
        losses = [float(step(f, l)) for f, l in epoch_batches(x_train, y_train, epoch)]
        history["loss"].append(float(np.mean(losses)))
        history["accuracy"].append(float(accuracy.result()))
        history["test_accuracy"].append(_test_accuracy(model, x_test, y_test))
    return history_result(history, "TF2 one device")


def train_fit(settings: common.Settings, strategy) -> dict:
    """Keras `fit` under a strategy (the model and optimizer made in its scope)."""
    import keras

    x_train, y_train, x_test, y_test = load(settings)
    epochs = settings.epochs_or(3, 10)
    with strategy.scope():
        model = _model(x_train.shape[1])
        model.compile(optimizer=keras.optimizers.SGD(LEARNING_RATE),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")])

    class TestAccuracy(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["test_accuracy"] = _test_accuracy(self.model, x_test, y_test)

    steps = len(x_train) // GLOBAL_BATCH
    fitted = model.fit(_dataset(x_train, y_train, epochs), epochs=epochs, steps_per_epoch=steps,
                       callbacks=[TestAccuracy()], verbose=0)
    history = {key: [float(v) for v in fitted.history[key]]
               for key in ("loss", "accuracy", "test_accuracy")}
    return history_result(history, f"Keras fit, {strategy.num_replicas_in_sync} replica(s)")


def train_custom(settings: common.Settings, strategy) -> dict:
    """The custom distributed loop, written for TF 2.21 + Keras 3."""
    import keras
    import tensorflow as tf

    x_train, y_train, x_test, y_test = load(settings)
    epochs = settings.epochs_or(3, 10)
    with strategy.scope():
        model = _model(x_train.shape[1])
        optimizer = keras.optimizers.SGD(LEARNING_RATE)
        # Keras 3: reduction=None replaces Reduction.NONE; the average over the
        # *global* batch is compute_average_loss's job.
        per_example = keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                 reduction=None)
        train_accuracy = keras.metrics.SparseCategoricalAccuracy()

    def replica_step(features, labels):
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            loss = tf.nn.compute_average_loss(per_example(labels, logits),
                                              global_batch_size=GLOBAL_BATCH)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                      model.trainable_variables))
        train_accuracy.update_state(labels, logits)
        return loss

    @tf.function
    def distributed_step(batch):
        losses = strategy.run(replica_step, args=batch)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    history = {"loss": [], "accuracy": [], "test_accuracy": []}
    distributed = iter(strategy.experimental_distribute_dataset(
        _dataset(x_train, y_train, epochs)))
    steps = len(x_train) // GLOBAL_BATCH
    for _ in range(epochs):
        train_accuracy.reset_state()  # Keras 3: reset_state(), not reset_states()
        losses = [float(distributed_step(next(distributed))) for _ in range(steps)]
        history["loss"].append(float(np.mean(losses)))
        history["accuracy"].append(float(train_accuracy.result()))
        history["test_accuracy"].append(_test_accuracy(model, x_test, y_test))
    return history_result(history, f"custom loop, {strategy.num_replicas_in_sync} replica(s)")


def two_device_strategy(name: str = "mirrored", count: int = 2,
                        devices: Optional[list[str]] = None):
    """Splits the CPU (or uses the GPUs) and returns the named strategy over `count` devices."""
    from modern import devices as modern_devices
    from modern import distribute

    modern_devices.split_cpu(count)
    import tensorflow as tf

    gpus = tf.config.list_logical_devices("GPU")
    chosen = devices or ([d.name for d in gpus[:count]] if len(gpus) >= count
                         else [f"/cpu:{i}" for i in range(count)])
    return distribute.strategy(name, chosen)
