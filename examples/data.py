"""The offline data set every training example uses.

scikit-learn's digits (1797 images of 8x8 pixels, 10 classes) ship inside the
installed package, so the examples run without a network; the seeds'
Fashion-MNIST can be given as a local `.npz` with `--data PATH`.
"""

from __future__ import annotations

from typing import Optional

import numpy as np


def load_digits_split(seed: int = 0, test_fraction: float = 0.2):
    """(x_train, y_train, x_test, y_test): float32 features standardised, int32 labels."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    digits = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(
        digits.data, digits.target, test_size=test_fraction, random_state=seed,
        stratify=digits.target)
    scaler = StandardScaler().fit(x_train)
    return (scaler.transform(x_train).astype(np.float32), y_train.astype(np.int32),
            scaler.transform(x_test).astype(np.float32), y_test.astype(np.int32))


def load_npz(path: str):
    """A local Fashion-MNIST-style .npz (x_train, y_train, x_test, y_test), flattened to [0, 1]."""
    try:
        archive = np.load(path)
    except OSError as error:
        raise SystemExit(f"--data {path}: cannot read it ({error})") from None
    missing = [k for k in ("x_train", "y_train", "x_test", "y_test") if k not in archive]
    if missing:
        raise SystemExit(f"--data {path}: the archive lacks {missing}; accepted: an .npz with "
                         "x_train, y_train, x_test, y_test (as keras.datasets.fashion_mnist)")

    def features(x):
        return (x.reshape(len(x), -1) / 255.0).astype(np.float32)

    return (features(archive["x_train"]), archive["y_train"].astype(np.int32),
            features(archive["x_test"]), archive["y_test"].astype(np.int32))


def load(data: Optional[str] = None, seed: int = 0):
    """The digits split, or the given .npz."""
    return load_npz(data) if data else load_digits_split(seed)
