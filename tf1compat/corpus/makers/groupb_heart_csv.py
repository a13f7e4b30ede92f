"""The South African heart-disease table as CS 20SI's `data/heart.csv` holds it (group b)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

HEADER = "sbp,tobacco,ldl,adiposity,famhist,typea,obesity,alcohol,age,chd"


def heart_csv(into: Path, rows: int = 60, name: str = "heart.csv", seed: int = 11) -> None:
    """`into/heart.csv`: a header, then `rows` lines of 8 numbers, famhist (Present/Absent)
    in the fifth column, and the 0/1 label chd last."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    lines = [HEADER]
    for _ in range(rows):
        chd = int(rng.randint(0, 2))
        famhist = "Present" if rng.rand() < 0.3 + 0.3 * chd else "Absent"
        lines.append(",".join([
            str(int(rng.randint(100, 200))),
            f"{rng.uniform(0, 15):.2f}",
            f"{rng.uniform(1, 10):.2f}",
            f"{rng.uniform(10, 40):.2f}",
            famhist,
            str(int(rng.randint(20, 70))),
            f"{rng.uniform(18, 40):.2f}",
            f"{rng.uniform(0, 100):.2f}",
            str(int(rng.randint(15, 65)) + 5 * chd),
            str(chd),
        ]))
    (into / name).write_text("\n".join(lines) + "\n")


MAKERS = {"heart_csv": heart_csv}
