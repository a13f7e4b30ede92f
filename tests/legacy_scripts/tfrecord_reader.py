"""TF1: tf.Example records (TFRecordReader -> parse_single_example -> decode_raw ->
tf.train.batch with 3 threads) and whole files (WholeFileReader), with queue runners
started without a Coordinator."""
import os
import sys

import numpy as np
import tensorflow as tf

data_dir = sys.argv[1]
record_file = os.path.join(data_dir, "records", "examples.tfrecord")
note_files = sorted(tf.gfile.Glob(os.path.join(data_dir, "notes", "*.txt")))

filename_queue = tf.train.string_input_producer([record_file], num_epochs=1)
reader = tf.TFRecordReader()
_, serialized = reader.read(filename_queue)
parsed = tf.parse_single_example(serialized, features={
    "image_raw": tf.FixedLenFeature([], tf.string),
    "label": tf.FixedLenFeature([], tf.int64),
    "weight": tf.FixedLenFeature([], tf.float32),
    "missing": tf.FixedLenFeature([], tf.int64, default_value=-1),
})
image = tf.reshape(tf.decode_raw(parsed["image_raw"], tf.uint8), [4, 4])
images, labels, weights, missing = tf.train.batch(
    [image, parsed["label"], parsed["weight"], parsed["missing"]], batch_size=5, num_threads=3,
    capacity=20, allow_smaller_final_batch=True)

notes_queue = tf.train.string_input_producer(note_files, num_epochs=1, shuffle=False)
file_name, contents = tf.WholeFileReader().read(notes_queue)

sess = tf.Session()
sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
threads = tf.train.start_queue_runners(sess=sess)  # no Coordinator
count, label_sum, weight_sum, pixel_sum, defaults = 0, 0, 0.0, 0, set()
try:
    while True:
        batch = sess.run([images, labels, weights, missing])
        count += len(batch[1])
        pixel_sum += int(batch[0].astype(np.int64).sum())
        label_sum += int(batch[1].sum())
        weight_sum += float(batch[2].sum())
        defaults.update(batch[3].tolist())
except tf.errors.OutOfRangeError:
    pass
print("examples:", count, "label sum:", label_sum, "weight sum: %.2f" % weight_sum,
      "default:", sorted(defaults))
print("pixel sum:", pixel_sum, "image shape:", images.shape.as_list())
notes = []
try:
    while True:
        name, text = sess.run([file_name, contents])
        notes.append((os.path.basename(name.decode()), text.decode().split()))
except tf.errors.OutOfRangeError:
    pass
for name, words in notes:
    print(name, len(words), words[0])
print("runner threads started:", len(threads) > 0)
sess.close()
