"""Keras 2's Sequential.predict_classes and predict_proba, softmax and sigmoid outputs."""
import numpy as np
import keras
from keras.layers import Dense
from keras.models import Sequential

rng = np.random.RandomState(0)
x = rng.rand(6, 3).astype("float32")
for units, activation in ((3, "softmax"), (1, "sigmoid")):
    model = Sequential([Dense(units, activation=activation, input_shape=(3,))])
    model.set_weights([rng.randn(3, units).astype("float32"), np.zeros(units, "float32")])
    print("predictions classes", units, model.predict_classes(x).ravel().tolist())
    print("predictions proba", units, np.round(model.predict_proba(x), 5).ravel().tolist())
chained = keras.models.Sequential()
chained.add(Dense(2, activation="softmax", input_shape=(3,)))
chained.set_weights([rng.randn(3, 2).astype("float32"), np.zeros(2, "float32")])
print("predictions chained", chained.predict_classes(x, batch_size=4).tolist())
