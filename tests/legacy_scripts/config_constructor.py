"""TF1: a session configured with ConfigProto / GPUOptions constructor keywords."""
import numpy as np
import tensorflow as tf

gpu_options = tf.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5,
                            visible_device_list="0")
config = tf.ConfigProto(log_device_placement=True,
                        allow_soft_placement=True,
                        device_count={"CPU": 2},
                        intra_op_parallelism_threads=2,
                        inter_op_parallelism_threads=2,
                        gpu_options=gpu_options)

x = tf.placeholder(tf.float32, shape=[2, 2], name="x")
with tf.device("/cpu:0"):
    left = tf.matmul(x, x, name="left")
with tf.device("/cpu:1"):
    right = tf.matmul(x, tf.transpose(x), name="right")
total = tf.add(left, right, name="total")

with tf.Session(config=config) as sess:
    cpus = [d.name for d in sess.list_devices() if d.device_type == "CPU"]
    print("cpu devices:", len(cpus))
    value = sess.run(total, feed_dict={x: np.array([[1.0, 2.0], [3.0, 4.0]])})
    print("total:", value.tolist())
