"""`tensorflow.examples.tutorials.mnist.input_data` for TF1 scripts: the old MNIST reader on
local files (tf1compat.shared.mnist_reader, its contract), never downloading."""

from tf1compat.shared.mnist_reader import (  # noqa: F401
    TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS, FILES, DEFAULT_SOURCE_URL,
    IMAGE_MAGIC, LABEL_MAGIC, Datasets, DataSet, extract_images, extract_labels,
    dense_to_one_hot, check_files, read_data_sets, load_mnist)
