"""Keras 2 (the standalone `keras` of 2017-2019) on TF 2.21, from legacy Keras (tf_keras).

TF 2.21's Keras is Keras 3; Keras 2's API lives on in tf_keras, whose TF1 view
(`tf_keras.api._v1.keras`) still has `get_session` / `set_session` and the TF1 training
loop. What tf_keras dropped or renamed of Keras 2.0-2.3 is here, one module per part:

- `backend`: `keras.backend.tensorflow_backend` (`set_session`, `get_session`,
  `clear_session`, `_get_available_gpus`), `image_dim_ordering`, `control_flow_ops`;
- `merge`: `keras.layers.merge`, its layer functions and Keras 1's `merge(..., mode=...)`;
- `multi_gpu`: `keras.utils.multi_gpu_model`, one tower per device;
- `optimizers`: Keras 2's optimizers (tf_keras's legacy ones) and their lower-case aliases;
- `extras`: the smaller names (Keras 2.3's LSTM/GRU defaults, MobileNet's `relu6`).

`tf1compat run` serves these as `keras` to user code (`tf1compat.runner.keras2`);
`tf1compat migrate` points a migrated script's imports of them here and the rest to tf_keras.
"""

V1_KERAS = "tf_keras.api._v1.keras"
