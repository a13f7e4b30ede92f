"""TF1: a small CNN on tf.layers (conv2d, max_pooling2d, flatten, dense) with tf.losses' sparse
softmax cross-entropy, trained by Adam on fixed data."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(3)  # TF 1.15's initial values the same on every run (its record holds them)
rng = np.random.RandomState(0)
images_data = rng.rand(8, 6, 6, 1).astype("float32")
labels_data = (images_data.reshape(8, -1).mean(axis=1) > 0.5).astype("int64")

images = tf.placeholder(tf.float32, [None, 6, 6, 1])
labels = tf.placeholder(tf.int64, [None])
conv = tf.layers.conv2d(images, 4, [3, 3], padding="same", activation=tf.nn.relu)
pool = tf.layers.max_pooling2d(conv, pool_size=[2, 2], strides=2)
flat = tf.layers.flatten(pool)
logits = tf.layers.dense(flat, 2)
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))
train = tf.train.AdamOptimizer(0.01).minimize(loss)

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for step in range(15):
    _, value = sess.run([train, loss], {images: images_data, labels: labels_data})
print("final loss: %.4f" % value)
print("accuracy: %.2f" % sess.run(accuracy, {images: images_data, labels: labels_data}))
print("trainable variables:", len(tf.trainable_variables()))
