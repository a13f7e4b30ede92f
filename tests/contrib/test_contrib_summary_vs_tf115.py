"""`tf.contrib.summary` writes what TF 1.15 wrote: under `run`, and after `migrate`, against TF
1.15's records. The tags (`family/family/name`, an image's `name/image`), the global step as
the default step, the record-if contexts, the ops collection and the graph-mode writer."""

from .three_ways import assert_close, three_ways

SCRIPT = """
import glob
import json
import shutil
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.core.util import event_pb2


def result(name, value):
    print("RESULT " + json.dumps([name, value]))


logdir = tempfile.mkdtemp()
global_step = tf.train.get_or_create_global_step()
increment = tf.assign_add(global_step, 1)
loss = tf.cast(global_step, tf.float32) * 0.5
writer = tf.contrib.summary.create_file_writer(logdir, flush_millis=10000)
with writer.as_default():
    with tf.contrib.summary.always_record_summaries():
        tf.contrib.summary.scalar("loss", loss)  # step: the global step
        tf.contrib.summary.scalar("loss", loss, family="train", step=7)
        tf.contrib.summary.histogram("weights", tf.constant([1.0, 2.0, 2.0]), family="hist")
        tf.contrib.summary.image("picture", tf.zeros([2, 4, 4, 1]), max_images=1)
    with tf.contrib.summary.record_summaries_every_n_global_steps(2):
        tf.contrib.summary.scalar("sparse", loss)
    with tf.contrib.summary.never_record_summaries():
        tf.contrib.summary.scalar("never", loss)
    ops = tf.contrib.summary.all_summary_ops()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)
        for _ in range(3):
            sess.run(ops)
            sess.run(increment)
        sess.run(tf.contrib.summary.flush(writer))
result("ops", len(ops))
events = []
for path in sorted(glob.glob(logdir + "/events.out.tfevents.*")):
    for record in tf.train.summary_iterator(path):
        for value in record.summary.value:
            kind = value.metadata.plugin_data.plugin_name or value.WhichOneof("value")
            number = None
            if value.HasField("simple_value"):
                number = round(value.simple_value, 4)
            elif value.HasField("tensor") and kind == "scalars":
                number = round(float(tf.make_ndarray(value.tensor)), 4)
            events.append([value.tag, int(record.step), kind, number])
result("events", sorted(events, key=lambda e: (e[0], e[1])))
shutil.rmtree(logdir)
"""


def test_contrib_summary_writes_what_tf115_wrote(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    assert [name for name, _ in expected] == ["ops", "events"]
    tags = {tag for tag, *_ in expected[1][1]}
    assert tags == {"loss", "train/train/loss", "hist/hist/weights", "picture/image", "sparse"}
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")
