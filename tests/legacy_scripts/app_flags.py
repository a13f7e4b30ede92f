"""TF1: a script driven by tf.app.flags and tf.app.run()."""
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("steps", 2, "how many times to add")
flags.DEFINE_string("name", "counter", "what to print")
FLAGS = flags.FLAGS


def main(_):
    value = tf.Variable(1.0)
    update = value.assign(value * 3.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(FLAGS.steps):
            sess.run(update)
        print("%s after %d steps: %.1f" % (FLAGS.name, FLAGS.steps, sess.run(value)))


if __name__ == "__main__":
    tf.app.run()
