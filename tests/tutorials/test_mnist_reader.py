"""The old MNIST reader against its documented behaviour, on idx files written here."""

import gzip
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.tutorials import mnist

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "legacy_scripts"))
import synthetic_data  # noqa: E402


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return synthetic_data.write_mnist(tmp_path_factory.mktemp("mnist"), train=30, test=10)


def test_read_data_sets_split_dtypes_and_one_hot(folder):
    data = mnist.read_data_sets(str(folder), one_hot=True, validation_size=5, seed=1)
    assert (data.train.num_examples, data.validation.num_examples, data.test.num_examples) == \
        (25, 5, 10)
    assert data.train.images.shape == (25, 784) and data.train.images.dtype == np.float32
    assert 0.0 <= data.train.images.min() and data.train.images.max() <= 1.0
    assert data.train.labels.shape == (25, 10) and data.train.labels.dtype == np.float64
    assert (data.train.labels.sum(1) == 1).all()
    dense = mnist.read_data_sets(str(folder), validation_size=5, dtype=tf.uint8, reshape=False)
    assert dense.train.images.shape == (25, 28, 28, 1) and dense.train.images.dtype == np.uint8
    assert dense.train.labels.dtype == np.uint8
    # validation is the first examples of the training file, unshuffled
    np.testing.assert_array_equal(dense.validation.labels, np.argmax(
        mnist.read_data_sets(str(folder), one_hot=True, validation_size=5).validation.labels, 1))
    np.testing.assert_allclose(data.validation.images * 255.0,
                               dense.validation.images.reshape(5, 784), atol=1e-3)


def test_the_bytes_are_read_as_written(folder):
    rng = np.random.RandomState(0)
    labels = rng.randint(0, 10, size=30).astype(np.uint8)
    images = synthetic_data.mnist_images(labels, rng)
    data = mnist.read_data_sets(str(folder), validation_size=0, dtype=tf.uint8)
    np.testing.assert_array_equal(data.train.labels, labels)  # never shuffled before next_batch
    np.testing.assert_array_equal(data.train.images, images.reshape(30, 784))


def test_next_batch_epochs_and_shuffling(folder):
    data = mnist.read_data_sets(str(folder), validation_size=0, dtype=tf.uint8, seed=3)
    train = data.train
    first = train.labels.copy()
    seen = []
    for _ in range(3):  # 3 x 8 = 24 of 30: still epoch 0
        seen.append(train.next_batch(8)[1])
    assert train.epochs_completed == 0
    crossing_images, crossing = train.next_batch(8)  # 6 left, then 2 of the next epoch
    assert train.epochs_completed == 1 and len(crossing) == 8 and len(crossing_images) == 8
    epoch = np.concatenate(seen + [crossing[:6]])
    assert sorted(epoch) == sorted(first) and not np.array_equal(epoch, first)
    # without shuffling, batches walk the data in order and wrap around
    plain = mnist.read_data_sets(str(folder), validation_size=0, dtype=tf.uint8).train
    batches = [plain.next_batch(12, shuffle=False)[1] for _ in range(3)]
    np.testing.assert_array_equal(np.concatenate(batches), np.concatenate([first, first[:6]]))


def test_the_same_seed_gives_the_same_batches(folder):
    def batches(seed):
        train = mnist.read_data_sets(str(folder), validation_size=0, seed=seed).train
        return np.concatenate([train.next_batch(7)[1] for _ in range(6)])

    np.testing.assert_array_equal(batches(5), batches(5))
    assert not np.array_equal(batches(5), batches(6))


def test_fake_data_and_validation_size_errors(folder):
    fake = mnist.read_data_sets("", fake_data=True, one_hot=True)
    images, labels = fake.train.next_batch(2, fake_data=True)
    assert len(images[0]) == 784 and labels[0] == [1] + [0] * 9
    assert fake.train.num_examples == 10000
    with pytest.raises(ValueError, match="Validation size should be between 0 and 30. "
                                         "Received: 31."):
        mnist.read_data_sets(str(folder), validation_size=31)
    with pytest.raises(TypeError, match="Invalid image dtype"):
        mnist.read_data_sets(str(folder), validation_size=0, dtype=tf.int32)


def test_missing_files_are_named_with_the_folder_and_nothing_is_downloaded(tmp_path):
    (tmp_path / mnist.TRAIN_IMAGES).write_bytes(b"")
    with pytest.raises(FileNotFoundError) as caught:
        mnist.read_data_sets(str(tmp_path), source_url="https://example.invalid/")
    message = str(caught.value)
    assert str(tmp_path) in message and "never downloads" in message
    for name in mnist.FILES:
        assert name in message
    assert f"{mnist.TRAIN_LABELS} (missing)" in message
    assert f"{mnist.TRAIN_IMAGES} (missing)" not in message


def test_a_wrong_magic_number_names_the_file(tmp_path):
    path = tmp_path / "labels.gz"
    with gzip.open(path, "wb") as out:
        out.write(struct.pack(">II", 2051, 0))
    with open(path, "rb") as handle, pytest.raises(ValueError, match="Invalid magic number "
                                                                      "2051 in MNIST label"):
        mnist.extract_labels(handle)
