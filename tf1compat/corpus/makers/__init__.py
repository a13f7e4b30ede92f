"""The synthetic data makers programs name in `data = [{maker = ..., into = ...}]`.

Each module here holds one on-disk format family and a `MAKERS` table: name -> function
`maker(into: Path, **options)` that writes deterministic data at `into` (a folder or a file, as
the maker says). Pure Python and NumPy: no TensorFlow, so the data is the same bytes for the
reference and for every mode.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import lru_cache
from pathlib import Path
from typing import Callable


@lru_cache(maxsize=1)
def all_makers() -> dict[str, Callable]:
    table: dict[str, Callable] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, maker in getattr(module, "MAKERS", {}).items():
            if name in table:
                raise ValueError(f"data maker {name!r} is declared twice "
                                 f"({table[name].__module__} and {module.__name__})")
            table[name] = maker
    return table


def maker_sources() -> dict[str, str]:
    """Each maker's module source: a record's digest changes when the data it read changes."""
    return {name: inspect.getsource(inspect.getmodule(maker))
            for name, maker in all_makers().items()}


def make(maker: str, into: Path, options: dict) -> None:
    table = all_makers()
    if maker not in table:
        raise ValueError(f"data maker {maker!r} is not known; accepted: {', '.join(sorted(table))}")
    table[maker](into, **options)
