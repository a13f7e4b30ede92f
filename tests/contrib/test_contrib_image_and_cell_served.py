"""contrib.image and rnn.LayerNormBasicLSTMCell are served by one table: each spelling scripts
use resolves under `run` and is rewritten by `migrate`; bad input fails naming the argument;
unserved names say so."""

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib import registry
from tf1compat.census.served import verdict

SPELLINGS = {
    "image.translate": ["attr:tensorflow:contrib.image.translate", "from:tensorflow.contrib.image:translate",
                        "from:tensorflow.contrib.image.python.ops.image_ops:translate"],
    "image.transform": ["attr:tensorflow:contrib.image.transform", "import:tensorflow.contrib.image.python.ops.image_ops"],
    "image.rotate": ["attr:tensorflow:contrib.image.rotate", "from:tensorflow.contrib.image.python.ops:image_ops"],
    "image.compose_transforms": ["attr:tensorflow:contrib.image.compose_transforms"],
    "image.angles_to_projective_transforms": ["attr:tensorflow:contrib.image.angles_to_projective_transforms"],
}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_run_and_migrate_serve_every_spelling(name):
    said = verdict(f"tf.contrib.{name}", SPELLINGS[name])
    assert (said["run"], said["migrate"]) == ("yes", "yes"), said
    assert registry.lookup(name).served is registry.Served.REPLACED


def test_deep_paths_are_the_served_objects():
    from tf1compat.contrib import image

    assert registry.deep_attribute("image.python.ops.image_ops.rotate") is image.rotate
    assert registry.resolve("image.flat_transforms_to_matrices") is \
        image.flat_transforms_to_matrices


def test_other_contrib_image_names_come_from_tf_1_15_s_source_or_say_why_not():
    # pure Python on core ops: TF 1.15's own file (TensorFlow's upgrade table says Addons)
    assert registry.lookup("image.dense_image_warp").source == "tf115-source"
    # its module reads the transforms tf1compat serves with its own code: not mixed with them
    with pytest.raises(registry.ContribError, match="image.connected_components"):
        registry.resolve("image.connected_components")


@pytest.mark.parametrize("call, words", [
    (lambda image: image.transform(np.zeros([2, 3, 4, 5, 1], np.float32), [1.0] * 8),
     r"images has rank 5.*rank 2 \(HW\), 3 \(HWC\) or 4 \(NHWC\)"),
    (lambda image: image.transform(np.zeros([4, 4], np.int16), [1.0] * 8),
     "images has dtype int16; accepted: uint8"),
    (lambda image: image.transform(np.zeros([4, 4, 1], np.float32), np.ones([1, 2, 8])),
     r"transforms has shape \(1, 2, 8\).*\[8\].*\[N, 8\]"),
    (lambda image: image.rotate(np.zeros([4, 4, 1], np.float32), 0.5, "CUBIC"),
     "interpolation='CUBIC'; accepted: 'NEAREST' or 'BILINEAR'"),
    (lambda image: image.transform(np.zeros([4, 4, 1], np.float32), [1.0] * 8,
                                   output_shape=[1, 2, 3]),
     r"output_shape has shape \(3,\); accepted: 2 values"),
    (lambda image: image.translate(np.zeros([4, 4, 1], np.float32), [[[1.0, 2.0]]]),
     r"translations has shape \(1, 1, 2\)"),
    (lambda image: image.rotate(np.zeros([2, 4, 4, 1], np.float32), [[0.1, 0.2]]),
     r"angles has shape \(1, 2\)"),
    (lambda image: image.matrices_to_flat_transforms(np.ones([9], np.float32)),
     r"transform_matrices has shape \(9,\)"),
    (lambda image: image.compose_transforms(), "at least one transform"),
])
def test_bad_input_names_the_argument(graph, call, words):
    from tf1compat.contrib import image

    with pytest.raises((TypeError, ValueError), match=words):
        call(image)


def test_unknown_rank_images_are_refused_as_tf1_did(graph):
    from tf1compat.contrib import image

    with pytest.raises(TypeError, match="rank of images must be known"):
        image.rotate(tf.compat.v1.placeholder(tf.float32), 0.3)


CELL_SPELLINGS = ["attr:tensorflow:contrib.rnn.LayerNormBasicLSTMCell", "from:tensorflow.contrib.rnn:LayerNormBasicLSTMCell",
                  "from:tensorflow.contrib.rnn.python.ops.rnn_cell:LayerNormBasicLSTMCell"]


def test_layer_norm_basic_lstm_cell_is_served_by_run_and_migrate():
    said = verdict("tf.contrib.rnn.LayerNormBasicLSTMCell", CELL_SPELLINGS)
    assert (said["run"], said["migrate"]) == ("yes", "yes"), said
    assert registry.lookup("rnn.LayerNormBasicLSTMCell").served is registry.Served.REPLACED
    from tf1compat.contrib import rnn

    assert registry.deep_attribute("rnn.python.ops.rnn_cell.LayerNormBasicLSTMCell") is \
        rnn.LayerNormBasicLSTMCell


@pytest.mark.parametrize("kwargs, words", [
    ({"num_units": 0}, "num_units=0; accepted: a positive int"),
    ({"num_units": 4, "dropout_keep_prob": 1.5}, r"dropout_keep_prob=1.5; accepted: .*\(0, 1\]"),
])
def test_layer_norm_basic_lstm_cell_bad_arguments_are_named(kwargs, words):
    from tf1compat.contrib import rnn

    with pytest.raises(ValueError, match=words):
        rnn.LayerNormBasicLSTMCell(**kwargs)
