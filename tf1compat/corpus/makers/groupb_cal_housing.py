"""California housing as scikit-learn caches it: `scikit_learn_data/cal_housing_py3.pkz`
(group b). fetch_california_housing reads the cache with joblib.load and downloads only when
it is missing."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np

from tf1compat.corpus.makers.pickled_arrays import PortableArray


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
    payload = pickle.dumps(PortableArray(table, writable=True), protocol=2)
    (into / "cal_housing_py3.pkz").write_bytes(payload)


MAKERS = {"cal_housing": cal_housing}
