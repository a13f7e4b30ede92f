"""A linear regression's log lines as TF1 tutorials wrote them: the weight and bias are
`[1]`-shaped, so what `sess.run` returns for them is a one-element array, formatted with
%f and converted with float() and int(). Prints the same under TF 1.15, under `tf1compat run`
and migrated (plain Python on NumPy 2)."""

import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None])
y = tf.placeholder(tf.float32, [None])
weight = tf.Variable([0.5], name="weight")
bias = tf.Variable([0.0], name="bias")
loss = tf.reduce_mean(tf.square(x * weight + bias - y))
step_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
xs = np.linspace(0.0, 2.0, 8).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, w, b, loss_value = sess.run([step_op, weight, bias, loss], {x: xs, y: 3 * xs + 1})
        print("step: %d, weight: %f, bias: %.4f, loss: %f" % (step, w, b, loss_value))
    w = weight.eval()
    print("final %.5f %s" % (w, w.shape))
    print(round(float(w), 5), int(w * 10))
