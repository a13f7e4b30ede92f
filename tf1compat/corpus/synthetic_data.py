"""Tiny synthetic data sets in the real on-disk formats the corpus scripts read. Never downloaded.

- MNIST: the four idx `.gz` files (big-endian header: magic 2051 / 2049, counts;
  then uint8 pixels / labels), 28x28 images with a class-dependent pattern.
- CIFAR-10 binary: `cifar-10-batches-bin/data_batch_{1..5}.bin` and `test_batch.bin`,
  records of 1 label byte + 3072 pixel bytes (1024 red, 1024 green, 1024 blue).
- CSV: two files with a header line.
- TFRecord of `tf.Example`: records framed as length (uint64 LE), masked CRC-32C of
  the length, data, masked CRC-32C of the data; the Example protobuf encoded here.
- Text: files for WholeFileReader, and PTB-style `ptb.{train,valid,test}.txt`.

Everything is seeded: the same bytes on every run. Pure Python + NumPy (no TensorFlow),
so the tests can generate the data without starting TensorFlow.
"""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import numpy as np

# --- MNIST ----------------------------------------------------------------------------------


def mnist_images(labels: np.ndarray, rng: np.random.RandomState) -> np.ndarray:
    """28x28 uint8 images: noise, and a 3-pixel-wide bar whose place depends on the class."""
    images = rng.randint(0, 140, size=(len(labels), 28, 28)).astype(np.uint8)
    for index, label in enumerate(labels):
        column = 2 + 2 * int(label) + rng.randint(0, 3)
        images[index, 6:22, column:column + 3] = 110 + rng.randint(0, 60)
    return images


def _gzip(path: Path, payload: bytes) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(payload)


def write_mnist(folder: Path, train: int = 600, test: int = 200, seed: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for prefix, count in (("train", train), ("t10k", test)):
        labels = rng.randint(0, 10, size=count).astype(np.uint8)
        images = mnist_images(labels, rng)
        _gzip(folder / f"{prefix}-images-idx3-ubyte.gz",
              struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
        _gzip(folder / f"{prefix}-labels-idx1-ubyte.gz",
              struct.pack(">II", 2049, count) + labels.tobytes())
    return folder


# --- CIFAR-10 binary ------------------------------------------------------------------------


def write_cifar10(folder: Path, per_file: int = 16, seed: int = 1) -> Path:
    """Record i of each file has label i % 10; the image's red plane grows with the label."""
    out = folder / "cifar-10-batches-bin"
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for name in [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]:
        records = []
        for index in range(per_file):
            label = index % 10
            planes = rng.randint(0, 40, size=(3, 32, 32)).astype(np.uint8)
            planes[0] += np.uint8(20 * label)
            records.append(bytes([label]) + planes.tobytes())
        (out / name).write_bytes(b"".join(records))
    return out


# --- CSV ------------------------------------------------------------------------------------


def write_csv(folder: Path) -> list[Path]:
    """Two files 'id,x,y,label' with a header; ids 0..19; y = 2x + 1; label = id % 3."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for part, ids in enumerate((range(0, 12), range(12, 20))):
        lines = ["id,x,y,label"] + [f"{i},{i * 0.5:.1f},{i + 1.0:.1f},{i % 3}" for i in ids]
        path = folder / f"points_{part}.csv"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


# --- TFRecord of tf.Example -----------------------------------------------------------------

def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TFRecord frames use.

    >>> hex(crc32c(b"123456789"))
    '0xe3069283'
    """
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord_frame(record: bytes) -> bytes:
    length = struct.pack("<Q", len(record))
    return (length + struct.pack("<I", _masked_crc(length)) + record
            + struct.pack("<I", _masked_crc(record)))


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64: ten bytes of two's complement
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def feature(value) -> bytes:
    """A tf.train.Feature: bytes_list (1), float_list (2, packed) or int64_list (3, packed)."""
    values = value if isinstance(value, (list, tuple)) else [value]
    if isinstance(values[0], bytes):
        return _field(1, b"".join(_field(1, item) for item in values))
    if isinstance(values[0], float):
        return _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)))
    return _field(3, _field(1, b"".join(_varint(int(item)) for item in values)))


def example(features: dict) -> bytes:
    """A serialized tf.train.Example: Features (1) holding map<string, Feature> entries (1)."""
    entries = b"".join(_field(1, _field(1, key.encode()) + _field(2, feature(value)))
                       for key, value in sorted(features.items()))
    return _field(1, entries)


def write_tfrecords(folder: Path, count: int = 12, seed: int = 2) -> Path:
    """`examples.tfrecord`: image_raw (16 bytes), label (int64 = index % 4), weight (float)."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    frames = []
    for index in range(count):
        image = rng.randint(0, 256, size=16).astype(np.uint8).tobytes()
        frames.append(tfrecord_frame(example({"image_raw": image, "label": index % 4,
                                              "weight": float(index) / 4.0})))
    path = folder / "examples.tfrecord"
    path.write_bytes(b"".join(frames))
    return path


# --- text -----------------------------------------------------------------------------------


def write_text_files(folder: Path) -> Path:
    out = folder / "notes"
    out.mkdir(parents=True, exist_ok=True)
    for index, word in enumerate(("alpha", "beta", "gamma", "delta")):
        (out / f"note_{index}.txt").write_text(f"{word} " * (index + 1))
    return out


def write_ptb(folder: Path, seed: int = 3) -> Path:
    """PTB-style text: sentences from a 20-word vocabulary, one per line."""
    out = folder / "ptb"
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    words = ["the", "cat", "dog", "sat", "ran", "on", "a", "mat", "log", "big", "small",
             "red", "blue", "and", "then", "slept", "ate", "fish", "bone", "home"]
    for name, sentences in (("train", 60), ("valid", 10), ("test", 10)):
        lines = []
        for _ in range(sentences):
            start = rng.randint(0, len(words))
            lines.append(" ".join(words[(start + step * 3) % len(words)]
                                  for step in range(rng.randint(4, 9))))
        (out / f"ptb.{name}.txt").write_text("\n".join(lines) + "\n")
    return out


WRITERS = {"mnist": lambda folder: write_mnist(folder / "mnist"),
           "cifar10": write_cifar10,
           "csv": lambda folder: write_csv(folder / "csv"),
           "tfrecord": lambda folder: write_tfrecords(folder / "records"),
           "text": write_text_files,
           "ptb": write_ptb}


def write_all(folder: Path) -> Path:
    """Every data set under `folder` (mnist/, cifar-10-batches-bin/, csv/, records/, notes/, ptb/)."""
    folder.mkdir(parents=True, exist_ok=True)
    for writer in WRITERS.values():
        writer(folder)
    return folder
