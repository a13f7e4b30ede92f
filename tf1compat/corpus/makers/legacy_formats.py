"""MNIST idx, CIFAR-10 binary, CSV, TFRecord of tf.Example and PTB text, from synthetic_data."""

from __future__ import annotations

from pathlib import Path

from tf1compat.corpus import synthetic_data


def mnist(into: Path, train: int = 600, test: int = 200, seed: int = 0) -> None:
    """The four `*-idx*-ubyte.gz` files in `into`, as input_data.read_data_sets reads them."""
    synthetic_data.write_mnist(into, train=train, test=test, seed=seed)


def cifar10_bin(into: Path, per_file: int = 16, seed: int = 1) -> None:
    """`into/cifar-10-batches-bin/{data_batch_1..5,test_batch}.bin`."""
    synthetic_data.write_cifar10(into, per_file=per_file, seed=seed)


def points_csv(into: Path) -> None:
    """`into/points_0.csv` and `points_1.csv`: id,x,y,label with a header."""
    synthetic_data.write_csv(into)


def examples_tfrecord(into: Path, count: int = 12, seed: int = 2) -> None:
    """`into/examples.tfrecord` of tf.Example: image_raw, label, weight."""
    synthetic_data.write_tfrecords(into, count=count, seed=seed)


def ptb(into: Path, seed: int = 3) -> None:
    """`into/ptb/ptb.{train,valid,test}.txt`."""
    synthetic_data.write_ptb(into, seed=seed)


MAKERS = {"mnist": mnist, "cifar10_bin": cifar10_bin, "points_csv": points_csv,
          "examples_tfrecord": examples_tfrecord, "ptb": ptb}
