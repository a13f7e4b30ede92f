"""A TPUEstimator run with use_tpu=False, in the style of BERT's run_classifier.py.

Flags, features written to a TFRecord file and read back with
`parse_single_example` and `map_and_batch`, `tf.contrib.tpu.RunConfig` with a
`TPUConfig` and `InputPipelineConfig.PER_HOST_V2`, `params['batch_size']`,
`TPUEstimatorSpec` with `eval_metrics=(metric_fn, tensors)`. Runs unchanged
under TensorFlow 1.15 and `tf1compat run`; writes what it saw as JSON.
"""
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("output_dir", None, "The model directory.")
flags.DEFINE_string("out", None, "Where the JSON results go.")
flags.DEFINE_bool("use_tpu", False, "Whether to use a TPU.")
flags.DEFINE_integer("train_batch_size", 16, "Total batch size for training.")
flags.DEFINE_integer("eval_batch_size", 8, "Total batch size for eval.")
flags.DEFINE_integer("num_train_steps", 30, "Training steps.")
flags.DEFINE_integer("iterations_per_loop", 10, "Steps per estimator call on a TPU.")

SEQ = 6
VOCAB = 20


def write_examples(path, rows, seed):
    rng = np.random.RandomState(seed)
    with tf.python_io.TFRecordWriter(path) as writer:
        for _ in range(rows):
            ids = rng.randint(0, VOCAB, SEQ)
            label = int(ids[:3].sum() > ids[3:].sum())
            feature = {"input_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids)),
                       "label_ids": tf.train.Feature(int64_list=tf.train.Int64List(
                           value=[label]))}
            writer.write(tf.train.Example(
                features=tf.train.Features(feature=feature)).SerializeToString())


def file_based_input_fn_builder(input_file, is_training, drop_remainder):
    name_to_features = {"input_ids": tf.FixedLenFeature([SEQ], tf.int64),
                        "label_ids": tf.FixedLenFeature([], tf.int64)}

    def _decode_record(record):
        example = tf.parse_single_example(record, name_to_features)
        return {name: tf.to_int32(value) for name, value in example.items()}

    def input_fn(params):
        batch_size = params["batch_size"]
        d = tf.data.TFRecordDataset(input_file)
        if is_training:
            d = d.repeat()
        return d.apply(tf.contrib.data.map_and_batch(
            _decode_record, batch_size=batch_size, drop_remainder=drop_remainder))
    return input_fn


def model_fn_builder(learning_rate):
    def model_fn(features, labels, mode, params):
        rng = np.random.RandomState(4)
        embedding = tf.get_variable("embeddings/word", [VOCAB, 8], initializer=tf.constant_initializer(
            rng.uniform(-0.3, 0.3, [VOCAB, 8])))
        pooled = tf.reduce_mean(tf.nn.embedding_lookup(embedding, features["input_ids"]), 1)
        output_weights = tf.get_variable("output_weights", [2, 8], initializer=tf.constant_initializer(
            rng.uniform(-0.3, 0.3, [2, 8])))
        output_bias = tf.get_variable("output_bias", [2], initializer=tf.zeros_initializer())
        logits = tf.nn.bias_add(tf.matmul(pooled, output_weights, transpose_b=True), output_bias)
        probabilities = tf.nn.softmax(logits)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={
                "probabilities": probabilities})
        label_ids = features["label_ids"]
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=label_ids, logits=logits))
        if mode == tf.estimator.ModeKeys.TRAIN:
            optimizer = tf.train.AdamOptimizer(learning_rate)
            train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
            return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)

        def metric_fn(label_ids, logits):
            predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
            return {"eval_accuracy": tf.metrics.accuracy(label_ids, predictions),
                    "eval_loss": tf.metrics.mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                        labels=label_ids, logits=logits))}
        return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss,
                                               eval_metrics=(metric_fn, [label_ids, logits]))
    return model_fn


def main(_):
    tf.gfile.MakeDirs(FLAGS.output_dir)
    train_file = os.path.join(FLAGS.output_dir, "train.tf_record")
    write_examples(train_file, 96, 0)
    run_config = tf.contrib.tpu.RunConfig(
        cluster=None, master=None, model_dir=FLAGS.output_dir, save_checkpoints_steps=100,
        tf_random_seed=3,
        tpu_config=tf.contrib.tpu.TPUConfig(
            iterations_per_loop=FLAGS.iterations_per_loop, num_shards=8,
            per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
    estimator = tf.contrib.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu, model_fn=model_fn_builder(0.05), config=run_config,
        train_batch_size=FLAGS.train_batch_size, eval_batch_size=FLAGS.eval_batch_size,
        predict_batch_size=FLAGS.eval_batch_size)
    estimator.train(file_based_input_fn_builder(train_file, True, True),
                    max_steps=FLAGS.num_train_steps)
    metrics = estimator.evaluate(file_based_input_fn_builder(train_file, False, True),
                                 steps=96 // FLAGS.eval_batch_size)
    predictions = list(estimator.predict(file_based_input_fn_builder(train_file, False, True)))
    result = {
        "metrics": {key: float(value) for key, value in metrics.items()},
        "probabilities": [p["probabilities"].tolist() for p in predictions[:10]],
        "predictions": len(predictions),
        "variables": sorted([name, shape] for name, shape in
                            tf.train.list_variables(FLAGS.output_dir)),
        "global_step": int(estimator.get_variable_value("global_step")),
    }
    with open(FLAGS.out, "w") as out:
        json.dump(result, out)
    print("trained to step", result["global_step"], "eval_accuracy",
          result["metrics"]["eval_accuracy"])


if __name__ == "__main__":
    flags.mark_flag_as_required("output_dir")
    tf.app.run()
