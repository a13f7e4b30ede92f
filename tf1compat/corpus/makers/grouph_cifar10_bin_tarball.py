"""CIFAR-10 "binary version" as TensorFlow's cifar10 tutorial downloads it: the archive
`cifar-10-binary.tar.gz` and, beside it, the folder it unpacks to, `cifar-10-batches-bin`
(`data_batch_1..5.bin`, `test_batch.bin`: records of 1 label byte and 3072 pixel bytes).
Tutorial-derived programs check that the archive exists before they look at the folder, so
both are written (the folder's files are legacy_formats' cifar10_bin records)."""

from __future__ import annotations

import gzip
import io
import tarfile
from pathlib import Path

from tf1compat.corpus import synthetic_data


def cifar10_bin_tarball(into: Path, per_file: int = 16, seed: int = 1) -> None:
    """`into/cifar-10-binary.tar.gz` and `into/cifar-10-batches-bin/...` (the same bytes)."""
    into.mkdir(parents=True, exist_ok=True)
    folder = synthetic_data.write_cifar10(into, per_file=per_file, seed=seed)
    archive = io.BytesIO()
    with gzip.GzipFile(fileobj=archive, mode="wb", compresslevel=1, mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(folder.iterdir()):
            payload = path.read_bytes()
            info = tarfile.TarInfo(f"cifar-10-batches-bin/{path.name}")
            info.size, info.mtime, info.mode = len(payload), 0, 0o644
            tar.addfile(info, io.BytesIO(payload))
    (into / "cifar-10-binary.tar.gz").write_bytes(archive.getvalue())


MAKERS = {"cifar10_bin_tarball": cifar10_bin_tarball}
