"""More of contrib served from TF 1.15's own source and homes, held against TF 1.15 itself:

- `contrib.specs`, the package TF 1.15 bound from `specs/python` (its network-spec language,
  whose operators are objects made by factories), served whole;
- contrib.layers' feature columns (`real_valued_column` ... `crossed_column`,
  `input_from_feature_columns`), whose crossing op ran on a kernel library of contrib's own:
  its second version is TF 2.21's core `SparseCross` (`tf1compat.contrib.sparse_feature_cross`),
  and the module constants (`SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY`) come from the file that
  assigns them;
- contrib.learn's estimators (premade, and the script's own `model_fn` returning `ModelFnOps`,
  through `SKCompat`), whose export module reads TF 1.15's generated `manifest_pb2.py` (loaded
  on today's protobuf) and the Graph Transform Tool's wrapper (absent from TF 2.21);
- `tf.contrib.keras.api.keras.*`, the package `tf.contrib.keras` was, and contrib.keras' own
  Keras-2 optimizers, carried on by tf_keras.
"""

import pytest

from contrib.three_ways import assert_close, three_ways

pytestmark = pytest.mark.tf1_reference

PROGRAM = r'''
import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib import specs
from tensorflow.contrib.keras.api.keras import layers as api_layers
from tensorflow.contrib.keras.api.keras.models import Sequential
from tensorflow.contrib.layers.python.ops import sparse_feature_cross_op

layers = tf.contrib.layers
out = {}
# specs: a small convolutional net from its spec string, weights from constants (specs'
# layers are contrib.layers', so the scope of their arguments reaches them)
images = tf.constant(np.linspace(-1, 1, 2 * 6 * 6 * 3).reshape(2, 6, 6, 3), tf.float32)
with tf.contrib.framework.arg_scope([layers.conv2d, layers.fully_connected],
                                    weights_initializer=tf.constant_initializer(0.05)):
    net = specs.create_net("net = Cr(4, [3, 3]) | Mp([2, 2]) | Flat | Fs(3)", images)
out["spec_variables"] = sorted(v.op.name for v in tf.global_variables())
out["spec_constants"] = [specs.pi, specs.e]
# feature columns, with a hashed cross on TF 1.15's second hashing
age = layers.real_valued_column("age")
aged = layers.bucketized_column(age, boundaries=[18, 30, 50])
color = layers.sparse_column_with_keys("color", ["red", "green", "blue"])
word = layers.sparse_column_with_hash_bucket("word", 10)
crossed = layers.crossed_column([color, word], 20,
                                hash_key=layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)
embedded = layers.embedding_column(word, 3, initializer=tf.constant_initializer(0.1))
features = {"age": tf.constant([[10.0], [40.0]]),
            "color": tf.SparseTensor([[0, 0], [1, 0]], ["red", "blue"], [2, 1]),
            "word": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2])}
with tf.variable_scope("columns", initializer=tf.constant_initializer(0.5)):
    dense = layers.input_from_feature_columns(features, [age, aged, embedded])
    logits, _, _ = layers.weighted_sum_from_feature_columns(features, [aged, color, crossed], 1)
as_strings = sparse_feature_cross_op.sparse_feature_cross([features["color"], features["word"]])
hashed = sparse_feature_cross_op.sparse_feature_cross(
    [features["color"], features["word"]], hashed_output=True, num_buckets=1000,
    hash_key=layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)
out["parsing_spec"] = sorted(layers.create_feature_spec_for_parsing([age, color, embedded]))
# contrib.keras as its api package, and its Keras-2 optimizer
model = Sequential([api_layers.Dense(2, input_shape=(3,), kernel_initializer="ones",
                                     bias_initializer="zeros")])
model.compile(tf.contrib.keras.api.keras.optimizers.SGD(lr=0.1), "mse")
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    out["net"] = sess.run(net).tolist()
    out["dense"], out["logits"] = [value.tolist() for value in sess.run([dense, logits])]
    out["strings"] = [value.decode() for value in sess.run(as_strings).values]
    out["hashed"] = sess.run(hashed).values.tolist()
out["variables"] = sorted(v.op.name for v in tf.global_variables() if v.op.name.startswith("col"))
x = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], np.float32)
model.fit(x, np.array([[1.0, 0.0], [0.0, 1.0]], np.float32), epochs=2, verbose=0)
out["keras"] = model.predict(x).tolist()
print("RESULT " + json.dumps(out, sort_keys=True))

# contrib.learn's DNNClassifier end to end: its variables and metrics as TF 1.15 names them
# (its weights start from random draws, which do not line up between the two runtimes)
rng = np.random.RandomState(0)
features_np = rng.rand(64, 4).astype(np.float32)
labels_np = (features_np.sum(axis=1) > 2).astype(np.int64)
model_dir = tempfile.mkdtemp()
classifier = tf.contrib.learn.DNNClassifier(
    hidden_units=[8], n_classes=2, model_dir=model_dir,
    feature_columns=tf.contrib.learn.infer_real_valued_columns_from_input(features_np),
    config=tf.contrib.learn.RunConfig(tf_random_seed=1))
classifier.fit(x=features_np, y=labels_np, steps=20, batch_size=16)
metrics = classifier.evaluate(x=features_np, y=labels_np, steps=1)
predicted = list(classifier.predict(features_np[:4], as_iterable=True))
learned = {"metrics": sorted(metrics), "steps": int(metrics["global_step"]),
           "variables": sorted(classifier.get_variable_names()),
           "predicted": [int(value) in (0, 1) for value in predicted]}
shutil.rmtree(model_dir)
print("RESULT " + json.dumps(learned, sort_keys=True))

# a contrib.learn Estimator of the script's own model_fn, through SKCompat and the deep import
# path 2017's tutorials used; weights from a constant, so its numbers are TF 1.15's
from tensorflow.contrib.learn.python.learn.estimators import model_fn as model_fn_lib


def linear_model_fn(features, targets, mode, params):
    weights = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(0.1))
    predicted = tf.squeeze(tf.matmul(features, weights), 1)
    loss = tf.losses.mean_squared_error(targets, predicted)
    train = tf.contrib.layers.optimize_loss(loss, tf.contrib.framework.get_global_step(),
                                            learning_rate=params["lr"], optimizer="SGD")
    return model_fn_lib.ModelFnOps(mode=mode, predictions={"y": predicted}, loss=loss,
                                   train_op=train)


inputs = np.arange(32, dtype=np.float32).reshape(8, 4) / 32.0
targets = inputs.sum(axis=1)
model_dir = tempfile.mkdtemp()
custom = tf.contrib.learn.Estimator(model_fn=linear_model_fn, params={"lr": 0.1},
                                    model_dir=model_dir)
wrapped = tf.contrib.learn.SKCompat(custom)
wrapped.fit(inputs, targets, batch_size=8, steps=5)
print("RESULT " + json.dumps({
    "loss": float(custom.evaluate(x=inputs, y=targets, steps=1)["loss"]),
    "predicted": wrapped.predict(inputs)["y"].tolist(),
    "modes": [tf.contrib.learn.ModeKeys.TRAIN, tf.contrib.learn.ModeKeys.INFER]}))
shutil.rmtree(model_dir)
'''


def test_specs_feature_columns_learn_and_keras_api_three_ways(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert len(expected) == 3
    assert expected[0]["strings"] == ["red_X_a", "blue_X_b", "blue_X_c"]
    assert "columns/weighted_sum_from_feature_columns/color_X_word/weights" in \
        expected[0]["variables"]
    assert expected[1]["steps"] == 20 and expected[1]["predicted"] == [True] * 4
    # float32 sums of a few products: TF 2.21's kernels may round the last digits apart
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")


def test_a_hashed_cross_in_tf_1_15_s_first_hashing_is_refused_saying_what_to_pass():
    import tensorflow as tf

    from tf1compat.contrib.sparse_feature_cross import UnhashableCross, sparse_feature_cross

    words = tf.SparseTensor([[0, 0]], ["a"], [1, 1])
    with tf.Graph().as_default(), pytest.raises(UnhashableCross) as refused:
        sparse_feature_cross([words, words], hashed_output=True, num_buckets=10)
    assert "hash_key=tf.contrib.layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY" in str(refused.value)
    with pytest.raises(TypeError, match="Inputs must be a list"):  # TF 1.15's own check
        sparse_feature_cross((words,))


def test_a_constant_s_home_is_the_one_file_that_assigns_it():
    from tf1compat.contrib import constant_homes, homes

    assert constant_homes.home_of("layers.OPTIMIZER_CLS_NAMES") == \
        "tensorflow.contrib.layers.python.layers.optimizers:OPTIMIZER_CLS_NAMES"
    # slim re-exported contrib.layers' constant: the one file in contrib that assigns it
    assert constant_homes.home_of("slim.OPTIMIZER_SUMMARIES") == \
        "tensorflow.contrib.layers.python.layers.optimizers:OPTIMIZER_SUMMARIES"
    assert constant_homes.home_of("layers.NOT_A_CONSTANT_ANYWHERE") is None
    # served from the module that carries that file on, so the constant and its readers agree
    assert homes.targets_of("layers.OPTIMIZER_CLS_NAMES") == [
        ("tf_slim", "tf_slim.layers.optimizers.OPTIMIZER_CLS_NAMES")]
    assert homes.targets_of("layers.not_a_constant") == []  # functions have records


def test_tf_1_15_s_generated_protos_load_on_today_s_protobuf():
    from tf1compat.contrib import tf115_code

    manifest = tf115_code.load(
        "tf1compat.contrib.from_tf115.contrib.session_bundle.manifest_pb2")
    signature = manifest.Signature()
    signature.regression_signature.input.tensor_name = "x:0"
    parsed = manifest.Signature.FromString(signature.SerializeToString())
    assert parsed.WhichOneof("type") == "regression_signature"
    assert parsed.regression_signature.input.tensor_name == "x:0"
    assert manifest.DESCRIPTOR.package == "tensorflow.serving"
