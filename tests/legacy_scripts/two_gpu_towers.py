"""TF1: one matmul per GPU, summed on the CPU (the classic multi-GPU example)."""
import numpy as np
import tensorflow as tf

np.random.seed(0)
a = np.random.rand(8, 8).astype("float32")
b = np.random.rand(8, 8).astype("float32")

products = []
for gpu, data in enumerate([a, b]):
    with tf.device("/gpu:%d" % gpu):
        matrix = tf.constant(data, name="matrix_%d" % gpu)
        products.append(tf.matmul(matrix, matrix, name="product_%d" % gpu))
with tf.device("/cpu:0"):
    total = tf.add_n(products, name="total")

config = tf.ConfigProto(allow_soft_placement=True)
with tf.Session(config=config) as sess:
    result = sess.run(total)
print("sum of towers:", round(float(result.sum()), 3))
print("corner:", np.round(result[:2, :2].astype("float64"), 3).tolist())
