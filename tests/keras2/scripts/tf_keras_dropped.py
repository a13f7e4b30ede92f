"""TF 1.15's tf.keras names that tf_keras dropped: Sequential's predict_classes and
predict_proba, the scikit-learn wrappers, HDF5Matrix, convert_all_kernels_in_model and the
linear cosine decay schedule, each used as a TF1-era script used it."""
import os
import sys
import tempfile

import h5py
import numpy as np
import tensorflow as tf
from tensorflow.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor

rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (24, 4)).astype("float32")
labels = np.array(["b", "a", "c"])[(x[:, 0] > 0).astype(int) + (x[:, 1] > 0.5).astype(int)]
target = (x.sum(axis=1) * 0.5).astype("float32")


def fixed_weights(model):
    weights = np.random.RandomState(1)
    model.set_weights([weights.normal(0, 0.5, w.shape).astype("float32")
                       for w in model.get_weights()])
    return model


def classifier(units=6):
    model = fixed_weights(tf.keras.Sequential([
        tf.keras.layers.Dense(units, activation="tanh", input_shape=(4,)),
        tf.keras.layers.Dense(3, activation="softmax")]))
    model.compile(optimizer=tf.keras.optimizers.SGD(lr=0.2), loss="categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def regressor():
    model = fixed_weights(tf.keras.models.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))]))
    model.compile(optimizer=tf.keras.optimizers.SGD(lr=0.1), loss="mse")
    return model


sk_classifier = KerasClassifier(build_fn=classifier, units=5, epochs=3, batch_size=8,
                                shuffle=False, verbose=0)
assert sk_classifier.get_params()["units"] == 5
sk_classifier.set_params(units=7)
sk_classifier.fit(x, labels)
print("predictions classifier", " ".join(sk_classifier.predict(x[:8])))
print("predictions proba", " ".join("%.6f" % p for p in sk_classifier.predict_proba(x[:2]).ravel()))
print("evaluate classifier %.6f" % sk_classifier.score(x, labels))
try:
    KerasClassifier(build_fn=classifier, no_such_parameter=1)
except ValueError as error:
    print("evaluate refused", "no_such_parameter" in str(error))

sk_regressor = KerasRegressor(build_fn=regressor, epochs=4, batch_size=6, shuffle=False, verbose=0)
sk_regressor.fit(x, target)
print("predictions regressor", " ".join("%.6f" % p for p in sk_regressor.predict(x[:4])))
print("evaluate regressor %.6f" % sk_regressor.score(x, target))

model = classifier()
print("predictions classes", " ".join(str(c) for c in model.predict_classes(x[:8])))
print("predictions sequential proba", " ".join("%.6f" % p for p in model.predict_proba(x[:1])[0]))
binary = fixed_weights(tf.keras.Sequential([
    tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(4,))]))
print("predictions binary classes", " ".join(str(c) for c in binary.predict_classes(x[:8])[:, 0]))

folder = tempfile.mkdtemp()
path = os.path.join(folder, "rows.h5")
with h5py.File(path, "w") as stored:
    stored["x"] = x
rows = tf.keras.utils.HDF5Matrix(path, "x", start=4, end=20, normalizer=lambda a: a * 2)
print("predictions hdf5", len(rows), rows.shape, "%.6f" % rows[0:3].sum(), "%.6f" % rows[5].sum(),
      "%.6f" % rows[[1, 5]].sum())
fitted = fixed_weights(tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))]))
fitted.compile(optimizer=tf.keras.optimizers.SGD(lr=0.05), loss="mse")
np.random.seed(3)  # shuffle="batch" shuffles whole batches with NumPy
history = fitted.fit(rows, target[4:20], batch_size=4, epochs=2, shuffle="batch", verbose=0)
print("losses hdf5", " ".join("%.6f" % loss for loss in history.history["loss"]))
try:
    rows[16]
except IndexError:
    print("predictions hdf5 past the end refused")

conv = fixed_weights(tf.keras.Sequential([tf.keras.layers.Conv2D(2, 3, input_shape=(5, 5, 1))]))
before = conv.get_weights()[0]
tf.keras.utils.convert_all_kernels_in_model(conv)
after = conv.get_weights()[0]
print("predictions converted", np.allclose(after, before[::-1, ::-1]), "%.6f" % after[0, 0, 0, 0])

schedule = tf.keras.experimental.LinearCosineDecay(0.1, decay_steps=10, num_periods=0.5,
                                                   alpha=0.0, beta=0.001)
with tf.Session() as session:
    rates = session.run([schedule(step) for step in (0, 3, 10)])
print("predictions schedule", " ".join("%.6f" % rate for rate in rates))
noisy = tf.keras.experimental.NoisyLinearCosineDecay(0.1, decay_steps=10)
print("predictions noisy", noisy.get_config()["initial_variance"],
      noisy.get_config()["variance_decay"])
sys.stdout.flush()
