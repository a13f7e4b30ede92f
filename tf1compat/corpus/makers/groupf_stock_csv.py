"""Daily stock prices as Yahoo Finance's CSV download writes them (the Stock-Prediction-Models
`dataset/*.csv` files): `Date,Open,High,Low,Close,Adj Close,Volume`, one line a trading day."""

from __future__ import annotations

import datetime
from pathlib import Path

import numpy as np


def yahoo_daily_csv(into: Path, rows: int = 120, start: str = "2016-11-02", price: float = 780.0,
                    seed: int = 11) -> None:
    """`into` is the CSV file: `rows` weekdays from `start`, a seeded random walk of prices."""
    rng = np.random.RandomState(seed)
    day = datetime.date.fromisoformat(start)
    close = price
    lines = ["Date,Open,High,Low,Close,Adj Close,Volume"]
    for _ in range(rows):
        while day.weekday() >= 5:
            day += datetime.timedelta(days=1)
        open_ = close * (1 + rng.normal(0, 0.005))
        close = max(1.0, open_ * (1 + rng.normal(0.0005, 0.012)))
        high = max(open_, close) * (1 + abs(rng.normal(0, 0.004)))
        low = min(open_, close) * (1 - abs(rng.normal(0, 0.004)))
        volume = int(rng.randint(900_000, 3_000_000))
        lines.append(f"{day.isoformat()},{open_:.6f},{high:.6f},{low:.6f},{close:.6f},"
                     f"{close:.6f},{volume}")
        day += datetime.timedelta(days=1)
    into.parent.mkdir(parents=True, exist_ok=True)
    into.write_text("\n".join(lines) + "\n")


MAKERS = {"yahoo_daily_csv": yahoo_daily_csv}
