"""Keras 2: multi_gpu_model with 2 towers, in a session with 2 logical CPUs (the GPUs run on
them: `tf1compat run --device-map 'gpu:*=cpu:*'`; under TF 1.15, tf115_gpus_on_cpus.py)."""
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD
from keras.utils import multi_gpu_model

K.set_session(tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})))
rng = np.random.RandomState(2)
x = rng.uniform(-1, 1, (24, 3)).astype("float32")
y = np.stack([x.sum(axis=1), x[:, 0] * x[:, 1]], axis=1).astype("float32")
model = Sequential([Dense(6, activation="tanh", input_shape=(3,)), Dense(2)])
model.set_weights([rng.normal(0, 0.5, w.shape).astype("float32") for w in model.get_weights()])
parallel = multi_gpu_model(model, gpus=2)
parallel.compile(optimizer=SGD(lr=0.2), loss="mse")
history = parallel.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("losses", " ".join("%.6f" % loss for loss in history.history["loss"]))
print("predictions", " ".join("%.6f" % p for p in parallel.predict(x[:5], batch_size=5).ravel()))
print("evaluate %.6f" % parallel.evaluate(x, y, batch_size=8, verbose=0))
towers = sorted({op.device.rsplit("device:", 1)[-1] for op in K.get_session().graph.get_operations()
                 if op.name.startswith("replica_") and op.type == "MatMul"})
print("towers", " ".join(towers))
