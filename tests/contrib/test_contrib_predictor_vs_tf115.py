"""`tf.contrib.predictor` three ways (TF 1.15, `run`, migrated): a SavedModel's predictor and a
`tf.estimator` Estimator's, TF 1.15's own predictor classes run from its source."""


from contrib.three_ways import assert_close, three_ways

SCRIPT = """
import json
import tempfile

import tensorflow as tf

export_dir = tempfile.mkdtemp() + "/model"
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    weights = tf.Variable([[1.0], [2.0]])
    bias = tf.Variable([0.5])
    y = tf.add(tf.matmul(x, weights), bias, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, export_dir, inputs={"x": x}, outputs={"y": y})
predict = tf.contrib.predictor.from_saved_model(export_dir)
print("RESULT " + json.dumps(predict({"x": [[1.0, 1.0], [3.0, -1.0]]})["y"].tolist()))
print("RESULT " + json.dumps([sorted(predict.feed_tensors), sorted(predict.fetch_tensors)]))
print("RESULT " + json.dumps(predict({"x": [[0.0, 0.0]]})["y"].tolist()))


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.5], [-1.0]]))
    out = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": out}, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput({"y": out})})
    loss = tf.reduce_mean(tf.square(out - labels))
    step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=step)


estimator = tf.estimator.Estimator(model_fn, model_dir=tempfile.mkdtemp())
estimator.train(lambda: tf.data.Dataset.from_tensors(({"x": [[1.0, 2.0]]}, [[1.0]])).repeat(),
                steps=3)


def serving_input():
    x = tf.placeholder(tf.float32, [None, 2])
    return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})


from_estimator = tf.contrib.predictor.from_estimator(estimator, serving_input)
print("RESULT " + json.dumps(from_estimator({"x": [[1.0, 2.0], [2.0, 0.0]]})["y"].tolist()))
"""


def test_predictors_of_a_saved_model_and_an_estimator_match_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    assert len(expected) == 4 and expected[0] == [[3.5], [1.5]]
    assert expected[1] == [["x"], ["y"]]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrated")
