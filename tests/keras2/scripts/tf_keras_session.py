"""TF1's tf.keras: a session given to tf.keras.backend.set_session, a model trained in it."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Dense

K.set_session(tf.Session(config=tf.ConfigProto(allow_soft_placement=True)))
rng = np.random.RandomState(0)
x = rng.uniform(-1, 1, (32, 4)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
model = tf.keras.Sequential([
    Dense(8, activation="tanh", input_shape=(4,),
          kernel_initializer=tf.keras.initializers.Ones(dtype=tf.float32)),
    tf.keras.layers.Dense(1, activation="sigmoid")])
model.set_weights([rng.normal(0, 0.5, w.shape).astype("float32") for w in model.get_weights()])
model.compile(optimizer=tf.keras.optimizers.Adam(lr=0.05, decay=0.01), loss="binary_crossentropy")
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
print("losses", " ".join("%.6f" % loss for loss in history.history["loss"]))
# The graph Keras built is the session's: a tensor of the model runs in it.
output = K.get_session().run(model.output, {model.input: x[:4]})
print("predictions", " ".join("%.6f" % p for p in output[:, 0]))
print("evaluate %.6f" % model.evaluate(x, y, verbose=0), K.get_session() is not None)
