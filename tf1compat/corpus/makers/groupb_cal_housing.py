"""California housing as scikit-learn caches it: `scikit_learn_data/cal_housing_py3.pkz`
(group b). fetch_california_housing reads the cache with joblib.load and downloads only when
it is missing."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np


class _Table:
    """A writable float64 (rows, 9) array that unpickles with any NumPy (`numpy.array` of
    `numpy.reshape(numpy.frombuffer(bytes, 'float64'), shape)`), not through the private
    `numpy.core` / `numpy._core` reconstructors; scikit-learn divides its columns in place."""

    def __init__(self, raw: bytes, shape: tuple):
        self.raw, self.shape = raw, shape

    def __reduce__(self):
        return np.array, (_Reshaped(self.raw, self.shape),)


class _Reshaped:
    def __init__(self, raw: bytes, shape: tuple):
        self.raw, self.shape = raw, shape

    def __reduce__(self):
        return np.reshape, (_Buffer(self.raw), self.shape)


class _Buffer:
    def __init__(self, raw: bytes):
        self.raw = raw

    def __reduce__(self):
        return np.frombuffer, (self.raw, "<f8")


def cal_housing(into: Path, rows: int = 2000, seed: int = 21) -> None:
    """`into/cal_housing_py3.pkz`: a plain pickle (protocol 2, which joblib.load reads) of the
    (rows, 9) table in scikit-learn's column order: median house value, median income,
    house age, total rooms, total bedrooms, population, households, latitude, longitude.
    Give `into = {home}/scikit_learn_data`."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    income = rng.uniform(0.5, 15.0, rows)
    age = rng.randint(1, 53, rows).astype(np.float64)
    households = rng.randint(50, 1500, rows).astype(np.float64)
    rooms = households * rng.uniform(3.0, 7.0, rows)
    bedrooms = rooms * rng.uniform(0.15, 0.25, rows)
    population = households * rng.uniform(1.5, 4.5, rows)
    latitude = rng.uniform(32.5, 42.0, rows)
    longitude = rng.uniform(-124.3, -114.3, rows)
    value = np.clip(40000.0 * income + 1000.0 * age - 3000.0 * (latitude - 32.5)
                    + rng.normal(0.0, 30000.0, rows), 15000.0, 500001.0)
    table = np.stack([value, income, age, rooms, bedrooms, population, households,
                      latitude, longitude], axis=1).astype("<f8")
    payload = pickle.dumps(_Table(table.tobytes(), table.shape), protocol=2)
    (into / "cal_housing_py3.pkz").write_bytes(payload)


MAKERS = {"cal_housing": cal_housing}
