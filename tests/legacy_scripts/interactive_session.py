"""TF1: an InteractiveSession with Tensor.eval() and Operation.run()."""
import tensorflow as tf

sess = tf.InteractiveSession()
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable(tf.ones([2, 2]))
b.initializer.run()
product = tf.matmul(a, b)
print("product:", product.eval().tolist())
tf.assign(b, b * 2).op.run()
print("doubled:", tf.reduce_sum(tf.matmul(a, b)).eval())
sess.close()
