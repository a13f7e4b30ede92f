"""Wide & deep on feature columns, and the canned regressors, as in TensorFlow's census tutorial.

`--model classifier` trains a DNNLinearCombinedClassifier on every kind of
feature column: numeric, bucketized, categorical with a vocabulary list and
with a hash bucket, crossed, embedding and indicator. `--model regressors`
trains LinearRegressor, DNNRegressor, BaselineRegressor and
DNNLinearCombinedRegressor on the same columns (one process, one model_dir
each). Runs unchanged under TensorFlow 1.15 and `tf1compat run`; writes what
it saw as JSON. The DNN starts from weights written by the script itself from
numpy (a warm start) and the embeddings from numpy constants, so both
TensorFlows start alike; linear weights start at zero in both. The linear
weights of the hashed and crossed columns are written out too: which buckets
were trained shows that both TensorFlows hash strings to the same bucket.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

EDUCATION = ["Bachelors", "HS-grad", "Masters", "Doctorate"]
OCCUPATIONS = ["Tech-support", "Craft-repair", "Sales", "Exec-managerial", "Prof-specialty",
               "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical"]
HIDDEN = [8, 4]
EMBEDDING = 3
HASH_BUCKETS = 16
CROSS_BUCKETS = 24
DNN_INPUTS = 2 + len(EDUCATION) + EMBEDDING  # age, hours, education indicator, embedding
ROWS = 120


def data(seed=7):
    rng = np.random.RandomState(seed)
    age = rng.uniform(18, 70, ROWS).astype(np.float32)
    hours = rng.uniform(10, 60, ROWS).astype(np.float32)
    education = rng.choice(EDUCATION, ROWS)
    occupation = rng.choice(OCCUPATIONS, ROWS)
    score = ((age - 40) / 15 + (hours - 35) / 12 + np.isin(education, EDUCATION[2:]) * 1.2
             - np.isin(occupation, OCCUPATIONS[5:]) * 1.0 + rng.randn(ROWS) * 0.5)
    features = {"age": age, "hours": hours, "education": education, "occupation": occupation}
    return features, (score > 0).astype(np.int32), score.astype(np.float32)


def columns():
    age = tf.feature_column.numeric_column("age")
    hours = tf.feature_column.numeric_column("hours")
    age_buckets = tf.feature_column.bucketized_column(age, boundaries=[25, 35, 45, 55])
    education = tf.feature_column.categorical_column_with_vocabulary_list("education", EDUCATION)
    occupation = tf.feature_column.categorical_column_with_hash_bucket("occupation",
                                                                       HASH_BUCKETS)
    crossed = tf.feature_column.crossed_column([education, age_buckets, "occupation"],
                                               CROSS_BUCKETS)
    table = np.random.RandomState(4).uniform(-0.3, 0.3, [HASH_BUCKETS, EMBEDDING])
    embedded = tf.feature_column.embedding_column(
        occupation, EMBEDDING, initializer=tf.constant_initializer(table.astype(np.float32)))
    wide = [age_buckets, education, occupation, crossed]
    deep = [age, hours, tf.feature_column.indicator_column(education), embedded]
    return wide, deep


def input_fn(features, labels, batch_size, repeat):
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    if repeat:
        dataset = dataset.repeat()
    return dataset.batch(batch_size)


def write_initial_checkpoint(folder, outputs):
    """The DNN's kernels and biases, from numpy, under the names the canned DNNs give them."""
    rng = np.random.RandomState(3)
    shapes, width = {}, DNN_INPUTS
    for index, units in enumerate(HIDDEN):
        shapes["dnn/hiddenlayer_%d/kernel" % index] = [width, units]
        shapes["dnn/hiddenlayer_%d/bias" % index] = [units]
        width = units
    shapes["dnn/logits/kernel"] = [width, outputs]
    shapes["dnn/logits/bias"] = [outputs]
    with tf.Graph().as_default():
        variables = [tf.Variable(rng.uniform(-0.4, 0.4, shape).astype(np.float32), name=name)
                     for name, shape in sorted(shapes.items())]
        saver = tf.train.Saver(variables)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return saver.save(sess, os.path.join(folder, "initial.ckpt"))


def checkpoint_summary(model_dir):
    """Variable names, shapes and global step; the hashed columns' trained buckets."""
    reader = tf.train.load_checkpoint(model_dir)
    summary = {"variables": sorted([name, shape]
                                   for name, shape in tf.train.list_variables(model_dir)),
               "global_step": int(reader.get_tensor("global_step")), "hashed": {}}
    for name, _ in summary["variables"]:
        if name.startswith("linear/linear_model/") and name.endswith("/weights") \
                and ("occupation" in name):
            summary["hashed"][name] = reader.get_tensor(name).tolist()
    return summary


def train_and_report(estimator, labels, steps, extra_keys):
    features, _, _ = data()
    estimator.train(lambda: input_fn(features, labels, 20, True), steps=steps)
    metrics = estimator.evaluate(lambda: input_fn(features, labels, 60, False))
    predictions = list(estimator.predict(lambda: input_fn(features, labels, 30, False)))[:12]
    result = {"metrics": {key: float(value) for key, value in metrics.items()}}
    for key in extra_keys:
        result[key] = [np.asarray(p[key]).tolist() for p in predictions]
    result.update(checkpoint_summary(estimator.model_dir))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["classifier", "regressors"], default="classifier")
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    features, classes, scores = data()
    wide, deep = columns()
    config = tf.estimator.RunConfig(tf_random_seed=11, save_summary_steps=10)
    folder = os.path.dirname(os.path.abspath(args.out))
    warm_start = tf.estimator.WarmStartSettings(write_initial_checkpoint(folder, 1),
                                                vars_to_warm_start="dnn/(hiddenlayer|logits).*")
    adagrad = lambda: tf.train.AdagradOptimizer(learning_rate=0.05)  # noqa: E731
    ftrl = lambda: tf.train.FtrlOptimizer(learning_rate=0.1)  # noqa: E731
    if args.model == "classifier":
        estimator = tf.estimator.DNNLinearCombinedClassifier(
            model_dir=args.model_dir, linear_feature_columns=wide, linear_optimizer=ftrl,
            dnn_feature_columns=deep, dnn_hidden_units=HIDDEN, dnn_optimizer=adagrad,
            config=config, warm_start_from=warm_start)
        result = train_and_report(estimator, classes, args.steps, ["probabilities", "logits"])
    else:
        regressors = {
            "linear": tf.estimator.LinearRegressor(
                wide, model_dir=os.path.join(args.model_dir, "linear"), optimizer=ftrl,
                config=config),
            "dnn": tf.estimator.DNNRegressor(
                HIDDEN, deep, model_dir=os.path.join(args.model_dir, "dnn"), optimizer=adagrad,
                config=config, warm_start_from=warm_start),
            "baseline": tf.estimator.BaselineRegressor(
                model_dir=os.path.join(args.model_dir, "baseline"), config=config,
                optimizer=lambda: tf.train.GradientDescentOptimizer(0.005)),
            "wide_deep": tf.estimator.DNNLinearCombinedRegressor(
                model_dir=os.path.join(args.model_dir, "wide_deep"), linear_feature_columns=wide,
                linear_optimizer=ftrl, dnn_feature_columns=deep, dnn_hidden_units=HIDDEN,
                dnn_optimizer=adagrad, config=config, warm_start_from=warm_start),
        }
        result = {name: train_and_report(regressor, scores, args.steps, ["predictions"])
                  for name, regressor in sorted(regressors.items())}
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("trained", args.model, "to step", args.steps)


if __name__ == "__main__":
    main()
