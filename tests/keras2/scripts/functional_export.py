"""Keras 2: a functional model joining an LSTM and a Dense branch with keras.layers.merge's
concatenate, trained, exported from K.get_session() as a SavedModel, and reloaded."""
import os
import shutil
import sys

import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import LSTM, Dense, Input
from keras.layers.merge import concatenate
from keras.models import Model
from keras.optimizers import SGD

export_dir = os.path.join(sys.argv[1], "exported")
shutil.rmtree(export_dir, ignore_errors=True)
rng = np.random.RandomState(1)
sequences = rng.uniform(-1, 1, (16, 5, 3)).astype("float32")
features = rng.uniform(-1, 1, (16, 2)).astype("float32")
targets = (sequences.mean(axis=(1, 2)) + features[:, :1].T).T.astype("float32")

sequence_in = Input(shape=(5, 3), name="sequence")
feature_in = Input(shape=(2,), name="features")
joined = concatenate([LSTM(4)(sequence_in), Dense(3, activation="relu")(feature_in)])
model = Model([sequence_in, feature_in], Dense(1)(joined))
model.set_weights([rng.normal(0, 0.4, w.shape).astype("float32") for w in model.get_weights()])
model.compile(optimizer=SGD(lr=0.1), loss="mse")
history = model.fit([sequences, features], targets, batch_size=4, epochs=2, shuffle=False,
                    verbose=0)
print("losses", " ".join("%.6f" % loss for loss in history.history["loss"]))
predicted = model.predict([sequences[:3], features[:3]])[:, 0]
print("predictions", " ".join("%.6f" % p for p in predicted))

tf.saved_model.simple_save(K.get_session(), export_dir,
                           inputs={"sequence": model.inputs[0], "features": model.inputs[1]},
                           outputs={"out": model.outputs[0]})
with tf.Graph().as_default(), tf.Session() as sess:
    meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
    signature = meta.signature_def["serving_default"]
    out = sess.run(signature.outputs["out"].name,
                   {signature.inputs["sequence"].name: sequences[:3],
                    signature.inputs["features"].name: features[:3]})
print("reloaded", " ".join("%.6f" % p for p in out[:, 0]))
