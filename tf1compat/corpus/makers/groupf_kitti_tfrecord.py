"""KITTI object detection as Zehaos/MobileNet's kitti_object_to_tfrecords writes it:
TFRecord files of tf.Example with a PNG `image/encoded`, `image/height`, `image/width`,
`image/channels`, `image/shape`, and per object `image/object/bbox/{xmin,ymin,xmax,ymax}`
(pixels, float), `image/object/bbox/label` (0 Pedestrian, 1 Cyclist, 2 Car) and
`image/object/bbox/label_text`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tf1compat.corpus import synthetic_data
from tf1compat.corpus.makers.groupf_png_images import encode_png

_NAMES = [b"Pedestrian", b"Cyclist", b"Car"]


def kitti_tfrecord(into: Path, count: int = 4, height: int = 375, width: int = 1242,
                   split: str = "train", seed: int = 19) -> None:
    """`into/SPLIT_000.tfrecord`: `count` road-like pictures with 1 to 4 boxes each."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    records = []
    for _ in range(count):
        image = np.zeros((height, width, 3), dtype=np.uint8)
        image[: height // 2] = (110, 150, 200)          # sky
        image[height // 2:] = (90, 90, 90)               # road
        image = np.clip(image + rng.randint(-8, 9, size=image.shape), 0, 255).astype(np.uint8)
        boxes, labels = [], []
        for _ in range(rng.randint(1, 5)):
            label = int(rng.randint(0, 3))
            box_w = int(rng.randint(30, 200))
            box_h = int(rng.randint(40, 150))
            x1 = int(rng.randint(0, width - box_w))
            y1 = int(rng.randint(height // 3, height - box_h))
            image[y1:y1 + box_h, x1:x1 + box_w] = rng.randint(0, 256, size=3)
            boxes.append((float(x1), float(y1), float(x1 + box_w), float(y1 + box_h)))
            labels.append(label)
        records.append(synthetic_data.example({
            "image/encoded": encode_png(image),
            "image/height": [height], "image/width": [width], "image/channels": [3],
            "image/shape": [height, width, 3],
            "image/object/bbox/xmin": [b[0] for b in boxes],
            "image/object/bbox/ymin": [b[1] for b in boxes],
            "image/object/bbox/xmax": [b[2] for b in boxes],
            "image/object/bbox/ymax": [b[3] for b in boxes],
            "image/object/bbox/label": labels,
            "image/object/bbox/label_text": [_NAMES[l] for l in labels],
        }))
    (into / f"{split}_000.tfrecord").write_bytes(
        b"".join(synthetic_data.tfrecord_frame(r) for r in records))


MAKERS = {"kitti_tfrecord": kitti_tfrecord}
