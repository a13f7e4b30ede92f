"""TF 1.15 names TF 2.21's tf.compat.v1 lacks, which TF1 code read: `tf.pywrap_tensorflow`
(one of TensorFlow's own modules in TF 1.15's API) and `tf.config.experimental_list_devices`
(the same function as `tf.contrib.eager.list_devices`). Prints the same lines under TF 1.15,
under `tf1compat run`, and migrated, under plain Python."""

import tempfile

import tensorflow as tf

weights = tf.Variable([1.5, 2.5], name="weights")
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    prefix = saver.save(sess, tempfile.mkdtemp() + "/model.ckpt")
reader = tf.pywrap_tensorflow.NewCheckpointReader(prefix)
print("checkpoint", reader.get_variable_to_shape_map()["weights"],
      reader.get_tensor("weights").tolist())
devices = tf.config.experimental_list_devices()
print("devices are strings", all(isinstance(name, str) for name in devices))
print("cpu listed", any(name.endswith("device:CPU:0") for name in devices))
