"""contrib.all_reduce (TF 1.15's tensorflow.python.distribute.all_reduce), three ways: TF 1.15,
`tf1compat run`, and after `migrate`; on four CPU devices of one session."""

import pytest

from contrib.three_ways import assert_close, three_ways

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.all_reduce.python import all_reduce
from tensorflow.python.distribute import all_reduce as same_module

devices = ["/job:localhost/replica:0/task:0/device:CPU:%d" % d for d in range(4)]
xs, ys = [], []
for d, device in enumerate(devices):
    with tf.device(device):  # 3 x 7: 21 values, cut into chunks that need padding
        xs.append(tf.constant(np.arange(21, dtype=np.float32).reshape(3, 7) * (d + 1) - d))
        ys.append(tf.constant(np.arange(24, dtype=np.float32).reshape(3, 8) * (d - 1.5)))
built = [
    all_reduce.build_ring_all_reduce(xs, 2, 2, [1, 0], tf.add),
    all_reduce.build_ring_all_reduce(xs, 1, 3, [0, 2, 3, 1], tf.add, lambda t: t / 4.0),
    same_module.build_recursive_hd_all_reduce(ys, tf.add),
    all_reduce.build_recursive_hd_all_reduce(ys[:2], tf.maximum),
    all_reduce.build_shuffle_all_reduce(xs, devices[1:], tf.add_n),
    all_reduce.build_shuffle_all_reduce(xs, [devices[2]], tf.add_n, tf.negative),
    all_reduce.build_shuffle_then_ring(xs, [devices[0]], 2, tf.add_n, tf.add),
    all_reduce.build_shuffle_then_shuffle(xs, [devices[3]], [devices[1]], tf.add_n),
]
placed = [[t.device.split("/")[-1] for t in outputs] for outputs in built]
errors = []
for call in (lambda: all_reduce.build_recursive_hd_all_reduce(ys[:3], tf.add),
             lambda: all_reduce.build_recursive_hd_all_reduce(xs, tf.add),
             lambda: all_reduce.build_ring_all_reduce(xs[:1], 1, 1, [0], tf.add),
             lambda: all_reduce.build_ring_all_reduce(xs, 3, 1, [0], tf.add)):
    try:
        call()
        errors.append("none")
    except (ValueError, IndexError):  # TF 1.15 failed on a ring of the wrong size by indexing
        errors.append("refused")
config = tf.ConfigProto(device_count={"CPU": 4}, allow_soft_placement=False)
with tf.Session(config=config) as s:
    values = s.run(built)
print("RESULT " + json.dumps([[v.tolist() for v in outputs] for outputs in values] +
                             [placed, errors, same_module.build_ring_all_reduce is
                              all_reduce.build_ring_all_reduce]))
"""


def test_all_reduce_builders_give_tf_1_15_s_sums_on_every_device(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    sums, placed, errors, same = expected[0][:8], expected[0][8], expected[0][9], expected[0][10]
    assert errors == ["refused"] * 4 and same is True
    assert all(devices == ["device:CPU:%d" % d for d in range(4)] for devices in placed[:3])
    total = sum(range(1, 5)) * 20 - 6  # the last value, 20 * (d + 1) - d summed over d
    assert sums[0][3][2][6] == total and sums[1][0][2][6] == total / 4
    assert under_run[0][8:] == expected[0][8:] and migrated[0][8:] == expected[0][8:]
    assert_close(expected, under_run, 1e-6, "run")
    assert_close(expected, migrated, 1e-6, "migrate")
