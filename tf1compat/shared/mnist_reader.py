"""The old MNIST reader (`tensorflow.examples.tutorials.mnist.input_data`), reading local files only.

Both worlds serve it: `tf1compat.tutorials.mnist` (what `tf1compat run` gives a TF1 script's
`input_data` import) and `modern.mnist_reader` (what `migrate --to tf2` imports instead).

Contract (TF 1.x `learn/datasets/mnist.py`, which `input_data` re-exported):

- `read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=tf.float32,
  reshape=True, validation_size=5000, seed=None)` reads the four idx files
  `train-images-idx3-ubyte.gz`, `train-labels-idx1-ubyte.gz`,
  `t10k-images-idx3-ubyte.gz`, `t10k-labels-idx1-ubyte.gz` from `train_dir`
  and returns `Datasets(train, validation, test)`; validation is the first
  `validation_size` training examples (ValueError unless 0 <= size <= the
  number of training images). It never downloads: a missing file raises
  FileNotFoundError naming the four files and the folder.
- Images: uint8 [N, rows, cols, 1], flattened to [N, rows * cols] with
  `reshape`, and as float32 scaled by 1/255 unless dtype is uint8 (another
  dtype raises TypeError). Labels: uint8 class ids, or float64 one-hot rows
  of 10 with `one_hot`.
- `DataSet.next_batch(batch_size, fake_data=False, shuffle=True)`: the first
  call of the first epoch shuffles the whole set; a batch that runs past the
  end takes the rest of the epoch, counts the epoch (`epochs_completed`),
  reshuffles, and completes itself from the start of the new epoch.
  Shuffling uses NumPy's global random state, which each DataSet reseeds when
  it is created: `numpy.random.seed(seed)` for a given seed, else from the
  graph-level seed (`tf.set_random_seed`), else at random.
- Idx format: a big-endian uint32 magic number (2051 for images, 2049 for
  labels), the counts (images: number, rows, columns; labels: number), then
  the bytes; a wrong magic number raises ValueError naming the file.
- Like TF 1.x, `extract_images` and `extract_labels` print `Extracting PATH`
  to stdout for each file they read.
"""

from __future__ import annotations

import collections
import gzip
import os
from typing import Any, Optional

import numpy
import tensorflow as tf

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
FILES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)
# TF 1.x's download address, kept as the default of `source_url` (nothing is downloaded).
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
IMAGE_MAGIC, LABEL_MAGIC = 2051, 2049

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _read32(stream) -> int:
    data = stream.read(4)
    if len(data) != 4:
        raise ValueError("the file ends inside its header")
    return int.from_bytes(data, "big")


def _name(handle) -> str:
    return getattr(handle, "name", None) or repr(handle)


def extract_images(f) -> numpy.ndarray:
    """uint8 [number, rows, cols, 1] from a gzipped idx3 file object."""
    print("Extracting", _name(f))  # as TF 1.x printed, to stdout
    with gzip.GzipFile(fileobj=f) as stream:
        magic = _read32(stream)
        if magic != IMAGE_MAGIC:
            raise ValueError(f"Invalid magic number {magic} in MNIST image file: {_name(f)} "
                             f"(expected {IMAGE_MAGIC})")
        number, rows, cols = _read32(stream), _read32(stream), _read32(stream)
        data = numpy.frombuffer(stream.read(number * rows * cols), dtype=numpy.uint8)
        if data.size != number * rows * cols:
            raise ValueError(f"MNIST image file {_name(f)} is truncated: {data.size} bytes of "
                             f"{number * rows * cols}")
        return data.reshape(number, rows, cols, 1)


def dense_to_one_hot(labels_dense: numpy.ndarray, num_classes: int) -> numpy.ndarray:
    """Class ids -> float64 one-hot rows."""
    one_hot = numpy.zeros((labels_dense.shape[0], num_classes))
    one_hot[numpy.arange(labels_dense.shape[0]), labels_dense.ravel()] = 1
    return one_hot


def extract_labels(f, one_hot: bool = False, num_classes: int = 10) -> numpy.ndarray:
    """uint8 [number] (or one-hot float64 [number, num_classes]) from a gzipped idx1 file object."""
    print("Extracting", _name(f))
    with gzip.GzipFile(fileobj=f) as stream:
        magic = _read32(stream)
        if magic != LABEL_MAGIC:
            raise ValueError(f"Invalid magic number {magic} in MNIST label file: {_name(f)} "
                             f"(expected {LABEL_MAGIC})")
        number = _read32(stream)
        labels = numpy.frombuffer(stream.read(number), dtype=numpy.uint8)
        if labels.size != number:
            raise ValueError(f"MNIST label file {_name(f)} is truncated: {labels.size} labels "
                             f"of {number}")
        return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _seed_numpy(seed: Optional[int]) -> None:
    graph_seed, op_seed = tf.compat.v1.get_seed(seed)
    numpy.random.seed(graph_seed if seed is None else op_seed)


def _image_dtype(dtype) -> str:
    name = tf.as_dtype(dtype).base_dtype.name
    if name not in ("uint8", "float32"):
        raise TypeError(f"Invalid image dtype {name!r}, expected uint8 or float32")
    return name


class DataSet:
    """Images and labels in memory, served in shuffled batches (see the module docstring)."""

    def __init__(self, images, labels, fake_data: bool = False, one_hot: bool = False,
                 dtype=None, reshape: bool = True, seed: Optional[int] = None):
        _seed_numpy(seed)
        kind = _image_dtype("float32" if dtype is None else dtype)
        self.one_hot = one_hot
        if fake_data:
            self._num_examples = 10000
        else:
            if images.shape[0] != labels.shape[0]:
                raise ValueError(f"images and labels differ in number: images.shape: "
                                 f"{images.shape} labels.shape: {labels.shape}")
            self._num_examples = images.shape[0]
            if reshape:
                if images.shape[3] != 1:
                    raise ValueError(f"reshape needs images of one channel; received shape "
                                     f"{images.shape}")
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if kind == "float32":
                images = images.astype(numpy.float32) * numpy.float32(1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def _shuffle(self) -> None:
        order = numpy.arange(self._num_examples)
        numpy.random.shuffle(order)
        self._images = self._images[order]
        self._labels = self._labels[order]

    def next_batch(self, batch_size: int, fake_data: bool = False, shuffle: bool = True):
        """The next `batch_size` examples as (images, labels), crossing epochs as described."""
        if fake_data:
            image = [1] * 784
            label = [1] + [0] * 9 if self.one_hot else 0
            return [image] * batch_size, [label] * batch_size
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch = start + batch_size
            return self._images[start:start + batch_size], self._labels[start:start + batch_size]
        self._epochs_completed += 1
        rest_images, rest_labels = self._images[start:], self._labels[start:]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (numpy.concatenate((rest_images, self._images[:end]), axis=0),
                numpy.concatenate((rest_labels, self._labels[:end]), axis=0))


def _open(train_dir: str, name: str):
    return open(os.path.join(train_dir, name), "rb")


def check_files(train_dir: str) -> None:
    """Raises FileNotFoundError naming the four files and the folder when one is missing."""
    missing = [name for name in FILES if not os.path.isfile(os.path.join(train_dir, name))]
    if missing:
        listed = ", ".join(f"{name} (missing)" if name in missing else name for name in FILES)
        raise FileNotFoundError(
            f"MNIST needs four files in {os.path.abspath(train_dir)!r}: {listed}. tf1compat "
            "never downloads them; copy the four idx .gz files of MNIST into that folder")


def read_data_sets(train_dir: str, fake_data: bool = False, one_hot: bool = False,
                   dtype=tf.float32, reshape: bool = True, validation_size: int = 5000,
                   seed: Optional[int] = None,
                   source_url: Optional[str] = DEFAULT_SOURCE_URL) -> Datasets:
    """Datasets(train, validation, test) from the four MNIST files in `train_dir`.

    `source_url` is accepted for compatibility and ignored: nothing is downloaded.
    """
    options: dict[str, Any] = {"dtype": dtype, "reshape": reshape, "seed": seed}
    if fake_data:
        def fake() -> DataSet:
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        return Datasets(train=fake(), validation=fake(), test=fake())
    check_files(train_dir)
    with _open(train_dir, TRAIN_IMAGES) as f:
        train_images = extract_images(f)
    with _open(train_dir, TRAIN_LABELS) as f:
        train_labels = extract_labels(f, one_hot=one_hot)
    with _open(train_dir, TEST_IMAGES) as f:
        test_images = extract_images(f)
    with _open(train_dir, TEST_LABELS) as f:
        test_labels = extract_labels(f, one_hot=one_hot)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                         f"Received: {validation_size}.")
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size],
                         **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    return read_data_sets(train_dir)
