"""The offline data set every example uses: the handwritten digits, standardised.

`load_digits_split()` reads `digits.npz` beside this module: the 1797 8x8 images (grey levels
0-16) and labels of the UCI "Optical Recognition of Handwritten Digits" test set (CC BY 4.0),
the same set scikit-learn ships as `load_digits`. It is small, needs no download and no
package beyond NumPy, and its split is deterministic for a seed.
`load_npz(path)` reads a local Fashion-MNIST-style .npz instead (arrays
x_train, y_train, x_test, y_test), for the examples' `--data PATH`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import numpy as np

DIGITS = Path(__file__).with_name("digits.npz")

Split = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _standardised(x_train: np.ndarray, x_test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both parts scaled by the train part's mean and deviation (a constant feature keeps
    scale 1, so it stays 0 rather than dividing by zero)."""
    mean, deviation = x_train.mean(axis=0), x_train.std(axis=0)
    deviation[deviation == 0] = 1.0
    return (((x_train - mean) / deviation).astype(np.float32),
            ((x_test - mean) / deviation).astype(np.float32))


def _stratified_rows(labels: np.ndarray, test_fraction: float,
                     seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row numbers of the train and test parts, each in a shuffled order (training batches mix
    the classes). The test part holds each class in its share of the whole: ceil(fraction * n)
    rows in all, each class's count rounded down and the rest given to the classes with the
    largest remainders. Every draw comes from one generator seeded with `seed`."""
    classes, counts = np.unique(labels, return_counts=True)
    wanted = counts * test_fraction
    per_class = np.floor(wanted).astype(int)
    missing = math.ceil(test_fraction * len(labels)) - int(per_class.sum())
    per_class[np.argsort(-(wanted - per_class), kind="stable")[:missing]] += 1
    rng = np.random.default_rng(seed)
    rows = [rng.permutation(np.flatnonzero(labels == label))[:count]
            for label, count in zip(classes, per_class)]
    test = np.zeros(len(labels), dtype=bool)
    test[np.concatenate(rows)] = True
    return rng.permutation(np.flatnonzero(~test)), rng.permutation(np.flatnonzero(test))


def load_digits_split(seed: int = 0, test_fraction: float = 0.2) -> Split:
    """Digits split into train and test (stratified), standardised on the train part.

    Returns:
      (x_train, y_train, x_test, y_test): float32 [n, 64] and int32 [n].

    >>> x_train, y_train, x_test, y_test = load_digits_split()
    >>> x_train.shape, x_test.shape, x_train.dtype.name, y_train.dtype.name
    ((1437, 64), (360, 64), 'float32', 'int32')
    """
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction={test_fraction!r}: accepted: a fraction between 0 "
                         "and 1 (exclusive)")
    with np.load(DIGITS) as digits:
        x = digits["images"].reshape(len(digits["images"]), -1).astype(np.float64)
        y = digits["labels"].astype(np.int32)
    train, test = _stratified_rows(y, test_fraction, seed)
    x_train, x_test = _standardised(x[train], x[test])
    return x_train, y[train], x_test, y[test]


def load_npz(path: str) -> Split:
    """A local .npz with x_train, y_train, x_test, y_test (e.g. Fashion-MNIST), flattened
    and standardised like the digits."""
    with np.load(path) as data:
        missing = [k for k in ("x_train", "y_train", "x_test", "y_test") if k not in data]
        if missing:
            raise ValueError(f"{path}: missing arrays {missing}; accepted: an .npz with "
                             "x_train, y_train, x_test, y_test")
        x_train = data["x_train"].reshape(len(data["x_train"]), -1).astype(np.float32)
        x_test = data["x_test"].reshape(len(data["x_test"]), -1).astype(np.float32)
        y_train, y_test = data["y_train"].astype(np.int32), data["y_test"].astype(np.int32)
    x_train, x_test = _standardised(x_train, x_test)
    return x_train, y_train, x_test, y_test


def load(data: Optional[str] = None, seed: int = 0) -> Split:
    """The digits, or the .npz at `data` when one is given."""
    return load_npz(data) if data else load_digits_split(seed=seed)
