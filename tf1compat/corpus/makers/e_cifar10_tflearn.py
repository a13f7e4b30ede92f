"""CIFAR-10, "python version", laid out as tflearn.datasets.cifar10 reads it: the archive
`cifar-10-python.tar.gz` and, beside it, the unpacked `cifar-10-batches-py/` whose pickled
dicts have str keys (a Python 2 pickle read with encoding='latin1'). (groupf_cifar10_py
wrote the Keras layout: bytes keys, no archive.)"""

from __future__ import annotations

import io
import pickle
import tarfile
from pathlib import Path

import numpy as np

from tf1compat.corpus.makers.pickled_arrays import PortableArray


def cifar10_py_tflearn(into: Path, per_file: int = 16, seed: int = 16) -> None:
    """`into/cifar-10-batches-py/{data_batch_1..5,test_batch,batches.meta}` (pickle protocol 2,
    dicts of 'data' (N x 3072 uint8: 1024 red, 1024 green, 1024 blue), 'labels', 'batch_label',
    'filenames') and the archive `into/cifar-10-python.tar.gz` holding them. (tflearn's loader
    reads `<dirname>/cifar-10-batches-py/` beside `<dirname>/cifar-10-python.tar.gz`: give
    `into = <dirname>`.)"""
    rng = np.random.RandomState(seed)
    out = into / "cifar-10-batches-py"
    out.mkdir(parents=True, exist_ok=True)
    payloads = {}
    names = [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]
    for number, name in enumerate(names):
        labels = [(number + i) % 10 for i in range(per_file)]
        images = rng.randint(0, 120, size=(per_file, 3, 32, 32)).astype(np.uint8)
        for i, label in enumerate(labels):
            images[i, label % 3, 4:28, 2 + 2 * label:6 + 2 * label] = 200
        batch = {"batch_label": f"{name} of 6 (synthetic)",
                 "labels": labels,
                 "data": PortableArray(images.reshape(per_file, 3072)),
                 "filenames": [f"synthetic_{number}_{i}.png" for i in range(per_file)]}
        payloads[name] = pickle.dumps(batch, protocol=2)
    payloads["batches.meta"] = pickle.dumps(
        {"label_names": ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog",
                         "horse", "ship", "truck"], "num_cases_per_batch": per_file,
         "num_vis": 3072}, protocol=2)
    for name, payload in payloads.items():
        (out / name).write_bytes(payload)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.USTAR_FORMAT) as tar:
        for name, payload in payloads.items():
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size, info.mtime, info.mode = len(payload), 0, 0o644
            tar.addfile(info, io.BytesIO(payload))
    (into / "cifar-10-python.tar.gz").write_bytes(buffer.getvalue())


MAKERS = {"cifar10_py_tflearn": cifar10_py_tflearn}
