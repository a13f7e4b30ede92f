"""CIFAR-10 "python version" (`cifar-10-python.tar.gz` unpacked), laid out as Keras 2's
keras.datasets.cifar10 reads it from `~/.keras/datasets/cifar-10-batches-py`: pickled dicts
with bytes keys (a Python 2 pickle read with encoding='bytes'): `data` (N x 3072 uint8, 1024
red, 1024 green, 1024 blue) and `labels`, in `data_batch_1..5` and `test_batch`; and beside the
folder the archive holding them (`cifar-10-python.tar.gz`, saved as Keras's get_file saves it:
`cifar-10-batches-py.tar.gz`), which get_file looks for before it looks at the folder.
(e_cifar10_tflearn writes tflearn's layout.)"""

from __future__ import annotations

import gzip
import io
import pickle
import tarfile
from pathlib import Path

import numpy as np


class _Pixels:
    """Unpickles as `numpy.frombuffer(raw, 'uint8').reshape(shape)` under any NumPy (no private
    `numpy.core` reconstructor in the pickle)."""

    def __init__(self, raw: bytes, shape: tuple):
        self.raw, self.shape = raw, shape

    def __reduce__(self):
        return np.reshape, (_Raw(self.raw), self.shape)


class _Raw:
    def __init__(self, raw: bytes):
        self.raw = raw

    def __reduce__(self):
        return np.frombuffer, (self.raw, "uint8")


def cifar10_py(into: Path, per_batch: int = 10000, seed: int = 13) -> None:
    """`into/cifar-10-batches-py/...`. Keras 2's load_data fills arrays of 10000 a batch, so
    `per_batch` must stay 10000 for it. Label i % 10; the red plane grows with the label."""
    out = into / "cifar-10-batches-py"
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    payloads = {}
    names = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    for name in names:
        labels = [index % 10 for index in range(per_batch)]
        data = rng.randint(0, 60, size=(per_batch, 3, 1024)).astype(np.uint8)
        data[:, 0, :] += (np.array(labels, dtype=np.uint8) * 19)[:, None]
        batch = {b"batch_label": name.encode(), b"labels": labels,
                 b"data": _Pixels(data.tobytes(), (per_batch, 3072)),
                 b"filenames": [b"synthetic_%05d.png" % i for i in range(per_batch)]}
        payloads[name] = pickle.dumps(batch, protocol=2)
    meta = {b"label_names": [b"airplane", b"automobile", b"bird", b"cat", b"deer", b"dog",
                             b"frog", b"horse", b"ship", b"truck"],
            b"num_cases_per_batch": per_batch, b"num_vis": 3072}
    payloads["batches.meta"] = pickle.dumps(meta, protocol=2)
    archive = io.BytesIO()
    with gzip.GzipFile(fileobj=archive, mode="wb", compresslevel=1, mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, payload in payloads.items():
            (out / name).write_bytes(payload)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size, info.mtime, info.mode = len(payload), 0, 0o644
            tar.addfile(info, io.BytesIO(payload))
    (into / "cifar-10-batches-py.tar.gz").write_bytes(archive.getvalue())


MAKERS = {"cifar10_py": cifar10_py}
