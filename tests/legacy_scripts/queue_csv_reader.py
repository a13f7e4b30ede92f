"""TF1: a CSV file read through the queue pipeline (string_input_producer -> TextLineReader)."""
import os
import sys

import tensorflow as tf

data_dir = sys.argv[1]
path = os.path.join(data_dir, "points.csv")
with open(path, "w") as handle:
    handle.write("x,y,label\n")
    for i in range(10):
        handle.write("%d,%.1f,%d\n" % (i, i * 0.5, i % 2))

filename_queue = tf.train.string_input_producer([path], num_epochs=1, shuffle=False)
reader = tf.TextLineReader(skip_header_lines=1)
_, line = reader.read(filename_queue)
x, y, label = tf.decode_csv(line, record_defaults=[[0], [0.0], [0]])
xs, ys, labels = tf.train.batch([x, y, label], batch_size=4, allow_smaller_final_batch=True)

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    rows, total = 0, 0.0
    try:
        while not coord.should_stop():
            bx, by, bl = sess.run([xs, ys, labels])
            rows += len(bx)
            total += float(by.sum())
            print("batch:", bx.tolist(), bl.tolist())
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
    coord.join(threads)
print("rows:", rows, "sum of y:", total)
