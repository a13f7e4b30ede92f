"""Premade classifiers (DNN, linear, wide & deep) on a CSV file, as in TensorFlow's samples.

Feature columns (numeric, bucketized, categorical with a vocabulary list
through an indicator column), a `tf.data` CSV input_fn, train, evaluate,
predict, export. Runs unchanged under TensorFlow 1.15 and `tf1compat run`;
writes what it saw as JSON. The network starts from weights written by the
script itself from numpy (a warm start), so both TensorFlows start alike;
linear weights start at zero in both.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

COLUMNS = ["sepal_length", "sepal_width", "petal_length", "petal_width", "colour", "species"]
DEFAULTS = [[0.0], [0.0], [0.0], [0.0], [""], [0]]
COLOURS = ["red", "green", "blue"]
HIDDEN = [10, 6]


def feature_columns():
    numeric = [tf.feature_column.numeric_column(name) for name in COLUMNS[:3]]
    width = tf.feature_column.bucketized_column(
        tf.feature_column.numeric_column("petal_width"), boundaries=[0.5, 1.0, 1.5])
    colour = tf.feature_column.indicator_column(
        tf.feature_column.categorical_column_with_vocabulary_list("colour", COLOURS))
    return numeric + [width, colour]


def input_fn(path, batch_size, repeat):
    def parse(line):
        fields = tf.decode_csv(line, record_defaults=DEFAULTS)
        features = dict(zip(COLUMNS, fields))
        return features, features.pop("species")
    dataset = tf.data.TextLineDataset(path).skip(1).map(parse)
    if repeat:
        dataset = dataset.repeat()
    return dataset.batch(batch_size)


def write_initial_checkpoint(folder, inputs):
    """The DNN's kernels and biases, from numpy, under the names DNNClassifier gives them."""
    rng = np.random.RandomState(3)
    shapes = {}
    width = inputs
    for index, units in enumerate(HIDDEN):
        shapes["dnn/hiddenlayer_%d/kernel" % index] = [width, units]
        shapes["dnn/hiddenlayer_%d/bias" % index] = [units]
        width = units
    shapes["dnn/logits/kernel"] = [width, 3]
    shapes["dnn/logits/bias"] = [3]
    with tf.Graph().as_default():
        variables = [tf.Variable(rng.uniform(-0.4, 0.4, shape).astype(np.float32), name=name)
                     for name, shape in sorted(shapes.items())]
        saver = tf.train.Saver(variables)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return saver.save(sess, os.path.join(folder, "initial.ckpt"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", required=True)
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--out", required=True)
    parser.add_argument("--export_dir")
    parser.add_argument("--model", choices=["dnn", "linear", "wide_deep"], default="dnn")
    args = parser.parse_args()

    initial = write_initial_checkpoint(os.path.dirname(os.path.abspath(args.out)),
                                       inputs=3 + 4 + len(COLOURS))
    warm_start = tf.estimator.WarmStartSettings(initial, vars_to_warm_start="dnn/.*")
    config = tf.estimator.RunConfig(tf_random_seed=11, save_summary_steps=10)
    adagrad = lambda: tf.train.AdagradOptimizer(learning_rate=0.1)  # noqa: E731
    if args.model == "dnn":
        classifier = tf.estimator.DNNClassifier(
            hidden_units=HIDDEN, feature_columns=feature_columns(), n_classes=3,
            model_dir=args.model_dir, optimizer=adagrad, config=config,
            warm_start_from=warm_start)
    elif args.model == "linear":
        classifier = tf.estimator.LinearClassifier(
            feature_columns=feature_columns(), n_classes=3, model_dir=args.model_dir,
            optimizer=lambda: tf.train.FtrlOptimizer(learning_rate=0.2), config=config)
    else:
        wide = feature_columns()[3:] + [tf.feature_column.crossed_column(
            [tf.feature_column.categorical_column_with_vocabulary_list("colour", COLOURS),
             tf.feature_column.bucketized_column(
                 tf.feature_column.numeric_column("petal_width"), [0.5, 1.0, 1.5])], 12)]
        classifier = tf.estimator.DNNLinearCombinedClassifier(
            linear_feature_columns=wide, dnn_feature_columns=feature_columns(),
            dnn_hidden_units=HIDDEN, n_classes=3, model_dir=args.model_dir,
            dnn_optimizer=adagrad, config=config, warm_start_from=warm_start)
    classifier.train(lambda: input_fn(args.csv, 16, repeat=True), steps=args.steps)
    metrics = classifier.evaluate(lambda: input_fn(args.csv, 50, repeat=False))
    predictions = list(classifier.predict(lambda: input_fn(args.csv, 10, repeat=False)))[:10]
    result = {
        "metrics": {key: float(value) for key, value in metrics.items()},
        "probabilities": [p["probabilities"].tolist() for p in predictions],
        "classes": [int(p["class_ids"][0]) for p in predictions],
        "variables": sorted([name, shape] for name, shape in
                            tf.train.list_variables(args.model_dir)),
        "global_step": int(classifier.get_variable_value("global_step")),
    }
    if args.export_dir:
        spec = tf.feature_column.make_parse_example_spec(feature_columns())
        receiver = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)
        exported = classifier.export_saved_model(args.export_dir, receiver)
        result["export"] = exported.decode() if isinstance(exported, bytes) else exported
    with open(args.out, "w") as out:
        json.dump(result, out)
    print("trained to step", result["global_step"], "accuracy", result["metrics"]["accuracy"])


if __name__ == "__main__":
    main()
