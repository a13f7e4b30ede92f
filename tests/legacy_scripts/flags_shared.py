"""TF1: flags defined in two modules (tf.app.flags and tf.flags), read before and after
tf.app.run() parses them, with tf.logging; main(argv) gets the arguments left over."""
import tensorflow as tf

import flags_common

tf.flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
tf.flags.DEFINE_integer("steps", 2, "Training steps.")
tf.flags.DEFINE_string("optimizer", "sgd", "sgd or momentum.")
FLAGS = tf.flags.FLAGS

# Read before tf.app.run(): TF1's FLAGS parses sys.argv on first access.
print("early read: steps=%d" % FLAGS.steps)


def main(argv):
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.logging.info("starting with %d steps", FLAGS.steps)
    tf.logging.debug("not shown at INFO")
    print("flags of both modules in one FLAGS:", FLAGS.batch_size == flags_common.FLAGS.batch_size)
    print(flags_common.describe())
    print("learning_rate=%.2f optimizer=%s" % (FLAGS.learning_rate, FLAGS.optimizer))
    print("leftover arguments:", argv[1:])
    lr = tf.constant(FLAGS.learning_rate)
    value = tf.Variable(1.0)
    opt = tf.train.MomentumOptimizer(lr, 0.5) if FLAGS.optimizer == "momentum" \
        else tf.train.GradientDescentOptimizer(lr)
    train = opt.minimize(tf.square(value))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(FLAGS.steps):
            sess.run(train)
        print("value after %d steps: %.4f" % (FLAGS.steps, sess.run(value)))
    tf.logging.warning("done")


if __name__ == "__main__":
    tf.app.run(main)
