"""TF1: CSV files read by several threads (TextLineReader with a header, shuffle_batch,
slice_input_producer over arrays, range_input_producer), stopped by a Coordinator."""
import glob
import os
import sys

import numpy as np
import tensorflow as tf

files = sorted(glob.glob(os.path.join(sys.argv[1], "points_*.csv")))
print("files:", [os.path.basename(f) for f in files])

# 1. two files, shuffled, two epochs, four reading threads into shuffle_batch.
filename_queue = tf.train.string_input_producer(files, num_epochs=2, shuffle=True, seed=5)
reader = tf.TextLineReader(skip_header_lines=1)
key, line = reader.read(filename_queue)
row_id, x, y, label = tf.decode_csv(line, record_defaults=[[0], [0.0], [0.0], [0]])
ids, xs, ys, labels = tf.train.shuffle_batch([row_id, x, y, label], batch_size=6, capacity=50,
                                             min_after_dequeue=10, num_threads=4, seed=6,
                                             allow_smaller_final_batch=True)

# 2. arrays in memory, sliced one example at a time, batched in order.
features = np.arange(10, dtype=np.float32).reshape(5, 2)
targets = np.array([0, 1, 0, 1, 1], dtype=np.int32)
feature, target = tf.train.slice_input_producer([features, targets], num_epochs=1,
                                                shuffle=False)
feature_batch, target_batch = tf.train.batch([feature, target], batch_size=2,
                                             allow_smaller_final_batch=True)

# 3. a range of indices, as the PTB reader steps through its data.
index = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue()

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    seen, total_y, label_counts = [], 0.0, np.zeros(3, dtype=np.int64)
    try:
        while not coord.should_stop():
            batch_ids, batch_y, batch_labels = sess.run([ids, ys, labels])
            seen.extend(batch_ids.tolist())
            total_y += float(batch_y.sum())
            label_counts += np.bincount(batch_labels, minlength=3)
    except tf.errors.OutOfRangeError:
        print("csv: out of range after", len(seen), "rows")
    print("each id twice:", sorted(seen) == sorted(list(range(20)) * 2))
    print("sum of y: %.1f" % total_y, "labels:", label_counts.tolist())
    sliced = []
    try:
        while True:
            f, t = sess.run([feature_batch, target_batch])
            sliced.append((f.tolist(), t.tolist()))
    except tf.errors.OutOfRangeError:
        pass
    print("sliced batches:", sliced)
    indices = []
    try:
        while True:
            indices.append(int(sess.run(index)))
    except tf.errors.OutOfRangeError:
        pass
    print("range:", indices)
    coord.request_stop()
    coord.join(threads)
