"""The offline data set every example uses: scikit-learn's digits, standardised.

`load_digits_split()` is small (1797 images of 8x8 = 64 features, 10 classes),
ships with scikit-learn (no download) and is deterministic for a seed.
`load_npz(path)` reads a local Fashion-MNIST-style .npz instead (arrays
x_train, y_train, x_test, y_test), for the examples' `--data PATH`.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

SKLEARN_HINT = "pip install 'tf1compat[examples]'"

Split = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _sklearn(module: str):
    """`sklearn.<module>`; without scikit-learn, an error that names the extra to install."""
    import importlib

    try:
        return importlib.import_module(f"sklearn.{module}")
    except ImportError as error:
        raise ModuleNotFoundError(f"the examples' data set and scaling need scikit-learn "
                                  f"({error}): {SKLEARN_HINT}", name="sklearn") from None


def _standardised(x_train: np.ndarray, x_test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scaler = _sklearn("preprocessing").StandardScaler().fit(x_train)
    return (scaler.transform(x_train).astype(np.float32),
            scaler.transform(x_test).astype(np.float32))


def load_digits_split(seed: int = 0, test_fraction: float = 0.2) -> Split:
    """Digits split into train and test (stratified), standardised on the train part.

    Returns:
      (x_train, y_train, x_test, y_test): float32 [n, 64] and int32 [n].

    >>> x_train, y_train, x_test, y_test = load_digits_split()
    >>> x_train.shape, x_test.shape, x_train.dtype.name, y_train.dtype.name
    ((1437, 64), (360, 64), 'float32', 'int32')
    """
    x, y = _sklearn("datasets").load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = _sklearn("model_selection").train_test_split(
        x, y, test_size=test_fraction, random_state=seed, stratify=y)
    x_train, x_test = _standardised(x_train, x_test)
    return x_train, y_train.astype(np.int32), x_test, y_test.astype(np.int32)


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
