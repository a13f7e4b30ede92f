"""The start of every reference probe: Python 3.5-3.7 code that runs under TF 1.15 and under
`tf1compat run` alike, and helpers that turn results into JSON."""
PRELUDE = '''
import json
import numpy as np
import tensorflow as tf

RNG = np.random.RandomState(0)


def floats(value):
    return np.asarray(value, dtype=np.float64).tolist()


def names(variables):
    return [v.op.name for v in variables]


def collections():
    keys = {"global": tf.GraphKeys.GLOBAL_VARIABLES, "trainable": tf.GraphKeys.TRAINABLE_VARIABLES,
            "model": tf.GraphKeys.MODEL_VARIABLES, "local": tf.GraphKeys.LOCAL_VARIABLES,
            "moving": tf.GraphKeys.MOVING_AVERAGE_VARIABLES}
    found = {key: names(tf.get_collection(name)) for key, name in keys.items()}
    found["regularization_losses"] = len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    found["update_ops"] = len(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
    return found


def assign_all(sess):
    """Every global variable gets values from RNG, in name order (initializers aside)."""
    for variable in sorted(tf.global_variables(), key=lambda v: v.op.name):
        shape = variable.shape.as_list()
        if variable.dtype.base_dtype.is_floating:
            variable.load(RNG.uniform(-0.5, 0.5, shape).astype(np.float32), sess)


def outputs_and_gradients(sess, outputs, inputs, feed=None):
    """Each output's value, and the gradients of a weighted sum of all outputs."""
    weighted = tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32) *
                                       tf.constant(RNG.rand(*t.shape.as_list()), tf.float32))
                         for t in outputs.values()])
    wrt = list(inputs) + tf.trainable_variables()
    grads = [g for g in tf.gradients(weighted, wrt)]
    present = [g for g in grads if g is not None]
    values, grad_values = sess.run([outputs, present], feed)
    result = {"outputs": {key: floats(value) for key, value in values.items()},
              "gradient_of": [v.op.name for v, g in zip(wrt, grads) if g is not None],
              "gradients": [floats(g) for g in grad_values]}
    return result
'''
