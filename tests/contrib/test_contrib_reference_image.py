"""contrib.image's projective transforms against TensorFlow 1.15: the same images (single HWC,
HW, NHWC batches, uint8 and float), transforms, translations and angles give the same pixels
(exactly for NEAREST on integer-valued images, within 1e-4 for BILINEAR) and the same gradients,
under `tf1compat run` and after `migrate`; deep-path imports serve the same functions."""

import pytest

from .three_ways import assert_close, three_ways

IMAGE = r"""
import json
import math
import numpy as np
import tensorflow as tf
from tensorflow.contrib.image.python.ops import image_ops
from tensorflow.contrib.image.python.ops.image_ops import rotate as deep_rotate

rng = np.random.RandomState(5)
batch_np = rng.randint(0, 255, size=(3, 7, 9, 2)).astype(np.float32)
batch = tf.constant(batch_np)
single = tf.constant(batch_np[0])
gray = tf.constant(batch_np[1, :, :, 0])
pixels = tf.constant(batch_np.astype(np.uint8))
shift = [2.0, -1.0]
per_image = tf.constant([[1.0, 0.0], [-2.0, 3.0], [0.5, 1.5]])
angles = tf.constant([0.3, -1.1, math.pi / 2])
skew = tf.constant([1.0, 0.2, -1.0, 0.1, 0.9, 0.5, 0.001, -0.002])
nearest = {}
bilinear = {}
for mode, out in (("NEAREST", nearest), ("BILINEAR", bilinear)):
    out["translate_batch"] = tf.contrib.image.translate(batch, per_image, mode)
    out["translate_one"] = tf.contrib.image.translate(single, shift, interpolation=mode)
    out["translate_gray"] = tf.contrib.image.translate(gray, shift, mode)
    out["rotate_batch"] = tf.contrib.image.rotate(batch, angles, interpolation=mode)
    out["rotate_one"] = deep_rotate(single, 0.7, interpolation=mode)
    out["rotate_gray"] = tf.contrib.image.rotate(gray, -0.4, mode)
    out["transform"] = tf.contrib.image.transform(batch, skew, interpolation=mode.lower())
    out["transform_shape"] = image_ops.transform(single, skew, mode, output_shape=[5, 11])
    out["uint8"] = tf.contrib.image.rotate(pixels, angles, mode)
helpers = {
    "translations": tf.contrib.image.translations_to_projective_transforms(per_image),
    "translation": tf.contrib.image.translations_to_projective_transforms(shift),
    "angles": tf.contrib.image.angles_to_projective_transforms(angles, 7.0, 9.0),
    "angle": tf.contrib.image.angles_to_projective_transforms(0.25, 4.0, 6.0),
    "matrices": tf.contrib.image.flat_transforms_to_matrices(skew),
    "flat": tf.contrib.image.matrices_to_flat_transforms(
        tf.constant(rng.rand(2, 3, 3).astype(np.float32) + 0.5)),
    "composed": tf.contrib.image.compose_transforms(
        skew, tf.contrib.image.translations_to_projective_transforms(shift)[0]),
}
composed_image = tf.contrib.image.transform(batch, helpers["composed"], "BILINEAR")
weights = tf.constant(rng.randn(3, 7, 9, 2).astype(np.float32))
grads = tf.gradients(
    [tf.reduce_sum(bilinear["rotate_batch"] * weights),
     tf.reduce_sum(nearest["translate_batch"] * weights)], [batch])
with tf.Session() as sess:
    values = sess.run({"nearest": nearest, "bilinear": bilinear, "helpers": helpers,
                       "composed_image": composed_image, "grads": grads})
values["dtypes"] = {"uint8": nearest["uint8"].dtype.name,
                    "gray": bilinear["rotate_gray"].dtype.name}


def listed(value):
    if isinstance(value, dict):
        return {key: listed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [listed(item) for item in value]
    return np.asarray(value).tolist()


print("RESULT " + json.dumps(listed(values), sort_keys=True))
"""


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_image_transforms_match_tf_1_15(tmp_path, onednn):
    env = {"TF_ENABLE_ONEDNN_OPTS": onednn}
    expected, under_run, migrated = three_ways(tmp_path, IMAGE, env)
    assert len(expected) == 1 and len(under_run) == 1 and len(migrated) == 1
    assert expected[0]["dtypes"] == {"uint8": "uint8", "gray": "float32"}
    for ours, where in ((under_run, "run"), (migrated, "migrate")):
        # NEAREST picks whole input pixels: integer-valued images agree exactly
        assert ours[0]["nearest"] == expected[0]["nearest"], where
        assert ours[0]["dtypes"] == expected[0]["dtypes"], where
        assert_close(expected[0]["bilinear"], ours[0]["bilinear"], 1e-4, where)
        assert_close(expected[0]["helpers"], ours[0]["helpers"], 1e-5, where)
        assert_close(expected[0]["composed_image"], ours[0]["composed_image"], 1e-4, where)
        assert_close(expected[0]["grads"], ours[0]["grads"], 1e-4, where)
