"""MNIST as the four unzipped idx files (`train-images-idx3-ubyte`, `train-labels-idx1-ubyte`,
`t10k-images-idx3-ubyte`, `t10k-labels-idx1-ubyte`), as DCGAN-tensorflow's load_mnist reads
them with np.fromfile; the images are synthetic_data's MNIST pattern. DCGAN reshapes to
60000 and 10000 images, hence the full counts by default."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from tf1compat.corpus import synthetic_data


def mnist_idx_raw(into: Path, train: int = 60000, test: int = 10000, seed: int = 17) -> None:
    """`into/{train,t10k}-{images-idx3,labels-idx1}-ubyte`, not gzipped."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for prefix, count in (("train", train), ("t10k", test)):
        labels = rng.randint(0, 10, size=count).astype(np.uint8)
        images = synthetic_data.mnist_images(labels, rng)
        (into / f"{prefix}-images-idx3-ubyte").write_bytes(
            struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
        (into / f"{prefix}-labels-idx1-ubyte").write_bytes(
            struct.pack(">II", 2049, count) + labels.tobytes())


MAKERS = {"mnist_idx_raw": mnist_idx_raw}
