"""examples/data.py: the digits split is deterministic; a local .npz is read the same way."""

import numpy as np

from examples.data import load, load_digits_split


def test_digits_split_is_deterministic_standardised_and_typed():
    first, second = load_digits_split(seed=0), load_digits_split(seed=0)
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    x_train, y_train, x_test, y_test = first
    assert x_train.shape == (1437, 64) and x_test.shape == (360, 64)
    assert x_train.dtype == np.float32 and y_train.dtype == np.int32
    assert abs(float(x_train.mean())) < 1e-3 and sorted(set(y_test.tolist())) == list(range(10))
    assert not np.array_equal(load_digits_split(seed=1)[1], y_train)


def test_a_local_npz_is_flattened_and_standardised(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "fashion.npz"
    np.savez(path, x_train=rng.integers(0, 255, (20, 28, 28), dtype=np.uint8),
             y_train=rng.integers(0, 10, 20), x_test=rng.integers(0, 255, (5, 28, 28),
                                                                  dtype=np.uint8),
             y_test=rng.integers(0, 10, 5))
    x_train, y_train, x_test, y_test = load(str(path))
    assert x_train.shape == (20, 784) and x_test.shape == (5, 784)
    assert x_train.dtype == np.float32 and y_test.dtype == np.int32
