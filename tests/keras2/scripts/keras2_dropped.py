"""Standalone Keras 2's names that tf_keras dropped, as Keras 2.3 scripts used them: the
scikit-learn wrappers, HDF5Matrix, convert_all_kernels_in_model, Sequential.predict_classes."""
import os
import tempfile

import h5py
import numpy as np
from keras.layers import Conv2D, Dense
from keras.models import Sequential
from keras.optimizers import SGD
from keras.utils import HDF5Matrix, convert_all_kernels_in_model
from keras.wrappers.scikit_learn import KerasClassifier

rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (24, 4)).astype("float32")
labels = (x[:, 0] > 0).astype("int64") + (x[:, 1] > 0.5).astype("int64")


def fixed_weights(model):
    weights = np.random.RandomState(1)
    model.set_weights([weights.normal(0, 0.5, w.shape).astype("float32")
                       for w in model.get_weights()])
    return model


def classifier(units=6):
    model = fixed_weights(Sequential([Dense(units, activation="tanh", input_shape=(4,)),
                                      Dense(3, activation="softmax")]))
    model.compile(optimizer=SGD(lr=0.2), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


wrapped = KerasClassifier(build_fn=classifier, units=5, epochs=3, batch_size=8, shuffle=False,
                          verbose=0)
wrapped.fit(x, labels)
print("predictions classifier", " ".join(str(c) for c in wrapped.predict(x[:8])))
print("evaluate classifier %.6f" % wrapped.score(x, labels))
print("predictions classes", " ".join(str(c) for c in classifier().predict_classes(x[:8])))

path = os.path.join(tempfile.mkdtemp(), "rows.h5")
with h5py.File(path, "w") as stored:
    stored["x"] = x
rows = HDF5Matrix(path, "x", start=2, end=10)
print("predictions hdf5", len(rows), rows.shape, "%.6f" % rows[1:4].sum())

conv = fixed_weights(Sequential([Conv2D(2, 3, input_shape=(5, 5, 1))]))
before = conv.get_weights()[0]
convert_all_kernels_in_model(conv)
print("predictions converted", np.allclose(conv.get_weights()[0], before[::-1, ::-1]))
