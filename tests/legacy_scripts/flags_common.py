"""Flags shared by the scripts of a TF1 project (imported by flags_shared.py)."""
import tensorflow as tf

tf.app.flags.DEFINE_string("model_dir", "/tmp/model", "Where to save the model.")
tf.app.flags.DEFINE_integer("batch_size", 32, "Examples per batch.")
tf.app.flags.DEFINE_boolean("use_fp16", False, "Train with half precision.")
FLAGS = tf.app.flags.FLAGS


def describe():
    tf.logging.info("model_dir=%s batch_size=%d", FLAGS.model_dir, FLAGS.batch_size)
    return "model_dir=%s batch_size=%d fp16=%s" % (FLAGS.model_dir, FLAGS.batch_size,
                                                   FLAGS.use_fp16)
