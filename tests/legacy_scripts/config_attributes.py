"""TF1: a ConfigProto filled in attribute by attribute, the way most scripts did it."""
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4
config.gpu_options.visible_device_list = "0"
config.gpu_options.experimental.virtual_devices.add(memory_limit_mb=[1024, 1024])
config.device_count["GPU"] = 1
config.device_count["CPU"] = 3
config.allow_soft_placement = True
config.log_device_placement = False
config.intra_op_parallelism_threads = 1
config.inter_op_parallelism_threads = 1
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1

counter = tf.Variable(0, name="counter")
increment = tf.assign_add(counter, 5)
with tf.device("/cpu:2"):
    squared = tf.square(counter)

with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(increment)
    print("cpu devices:", len([d for d in sess.list_devices() if d.device_type == "CPU"]))
    print("counter:", sess.run(counter), "squared:", sess.run(squared))
