"""How TF1 scripts turned sess.run's one-element arrays into numbers.

Under TF 1.15 (NumPy 1.18) and under `tf1compat run` it prints the same lines: a size-1
array of any rank converts with float(), int() and %-formatting; a larger or empty one,
and format() of any array with ndim > 0, raises TypeError on both.
"""

import numpy as np
import tensorflow as tf

weight = tf.Variable([2.5])
bias = tf.Variable([[3.0]])
step = tf.Variable([7], dtype=tf.int64)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    w, b, s = sess.run([weight, bias, step])
print("percent", "step: %d, weight: %f, bias: %.2f" % (s, w, b))
print("float", float(w), float(b), float(np.array([[[1.25]]], dtype=np.float16)))
print("int", int(s), int(np.array([9.7])), int(np.array([True])))
print("explicit", w.__float__(), s.__int__())


class Batch(np.ndarray):
    pass


print("subclass", float(np.array([4.5]).view(Batch)), float(np.matrix([[5.5]])))
print("0-d", float(np.array(6.5)), int(np.array(6)), float(np.float32(0.5)))
print("object", float(np.array([np.float64(1.5)], dtype=object)))
for shape in [(2,), (0,), (2, 1)]:
    try:
        float(np.zeros(shape))
        print("converted", shape)
    except TypeError:
        print("TypeError", shape)
try:
    print("format", "{:.2f}".format(w))
except TypeError:
    print("format TypeError")
