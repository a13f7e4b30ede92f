"""Criteo-style click logs, as the lambdaji/tf_repos CTR models read them.

`criteo_libsvm`: `tr.libsvm`, `va.libsvm`, `te.libsvm`; each line `label id:value ...` with one
  `id:value` per field (field f's ids lie in their own range), as get_criteo_feature.py writes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

_SPLITS = (("tr", 0), ("va", 1), ("te", 2))


def _label(rng: np.random.RandomState, score: float) -> int:
    return int(score + 0.3 * rng.randn() > 0.5)


def criteo_libsvm(into: Path, rows: int = 256, fields: int = 39, features: int = 1000,
                  seed: int = 11) -> None:
    into.mkdir(parents=True, exist_ok=True)
    per_field = max(1, features // fields)
    for name, offset in _SPLITS:
        rng = np.random.RandomState(seed + offset)
        lines = []
        for _ in range(rows):
            ids = [f * per_field + int(rng.randint(0, per_field)) for f in range(fields)]
            values = [round(float(rng.rand()), 5) if f < 13 else 1 for f in range(fields)]
            score = float(np.mean([(i % 7) / 6.0 for i in ids]))
            parts = [str(_label(rng, score))] + [f"{i}:{v}" for i, v in zip(ids, values)]
            lines.append(" ".join(parts))
        (into / f"{name}.libsvm").write_text("\n".join(lines) + "\n")


MAKERS = {"criteo_libsvm": criteo_libsvm}
