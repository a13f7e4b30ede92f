"""Keras 2: a configured TF1 session given to K.set_session, then a Sequential model's fit."""
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD

config = tf.ConfigProto(log_device_placement=True, allow_soft_placement=True)
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4
K.set_session(tf.Session(config=config))

rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (32, 4)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
model = Sequential([Dense(8, activation="tanh", input_shape=(4,)), Dense(1, activation="sigmoid")])
model.set_weights([rng.normal(0, 0.5, w.shape).astype("float32") for w in model.get_weights()])
model.compile(optimizer=SGD(lr=0.5), loss="binary_crossentropy")
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("losses", " ".join("%.6f" % loss for loss in history.history["loss"]))
print("predictions", " ".join("%.6f" % p for p in model.predict(x[:4])[:, 0]))
print("evaluate %.6f" % model.evaluate(x, y, verbose=0))

# A second session asking another memory fraction: TensorFlow keeps the first session's GPU
# options for the whole process (tf1compat run warns that this one's is ignored).
K.set_session(tf.Session(config=tf.ConfigProto(
    gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.2))))
print("second session set")
