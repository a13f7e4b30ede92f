"""A folder of RGB PNG photographs (8-bit, no interlace), as image tools and pix2pix read them
with tf.image.decode_png; optionally pix2pix's paired layout: each file is the A image and the
B image side by side (width = 2 x height). PNG written here with zlib: pure Python + NumPy."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))


def encode_png(pixels: np.ndarray) -> bytes:
    """uint8 (height, width, 3) -> PNG bytes (colour type 2, filter 0 on every row)."""
    height, width, _ = pixels.shape
    rows = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows, 6)) + _chunk(b"IEND", b""))


def _picture(rng: np.random.RandomState, height: int, width: int) -> np.ndarray:
    """Smooth colour gradients, a few rectangles and a little noise."""
    y, x = np.mgrid[0:height, 0:width]
    base = rng.uniform(40, 200, size=3)
    slope = rng.uniform(-60, 60, size=(3, 2))
    image = np.stack([base[c] + slope[c, 0] * y / height + slope[c, 1] * x / width
                      for c in range(3)], axis=-1)
    for _ in range(rng.randint(2, 5)):
        top, left = rng.randint(0, height - 2), rng.randint(0, width - 2)
        bottom = min(height, top + rng.randint(2, max(3, height // 2)))
        right = min(width, left + rng.randint(2, max(3, width // 2)))
        image[top:bottom, left:right] = rng.uniform(0, 255, size=3)
    image += rng.normal(0, 4, size=image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def png_images(into: Path, count: int = 6, height: int = 48, width: int = 64,
               paired: bool = False, prefix: str = "img", seed: int = 18) -> None:
    """`into/PREFIX_000.png`...: `count` pictures of height x width (x 2 wide when `paired`: a
    picture and, on its right, its edge-like counterpart, as pix2pix's combined A|B files)."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for index in range(count):
        picture = _picture(rng, height, width)
        if paired:
            gray = picture.mean(axis=2)
            edges = (np.abs(np.diff(gray, axis=0, prepend=gray[:1])) +
                     np.abs(np.diff(gray, axis=1, prepend=gray[:, :1])))
            sketch = np.where(edges > 25, 0, 255).astype(np.uint8)
            picture = np.concatenate([picture, np.repeat(sketch[:, :, None], 3, axis=2)], axis=1)
        (into / f"{prefix}_{index:03d}.png").write_bytes(encode_png(picture))


MAKERS = {"png_images": png_images}
