"""The old MNIST reader (`tensorflow.examples.tutorials.mnist.input_data`) for TF2 programs:
`migrate --to tf2` writes `from modern import mnist_reader as input_data`. Reads local files
only; shuffling is seeded by `tf.random.set_seed` as TF1's by the graph-level seed
(tf1compat.shared.mnist_reader has the contract)."""

from tf1compat.shared.mnist_reader import (  # noqa: F401
    TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS, FILES, DEFAULT_SOURCE_URL,
    IMAGE_MAGIC, LABEL_MAGIC, Datasets, DataSet, extract_images, extract_labels,
    dense_to_one_hot, check_files, read_data_sets, load_mnist)
