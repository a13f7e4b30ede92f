"""How often public TF1 code uses each name: the weights of the probe's headline number.

A weight source is a census `uses.csv` with columns `name` and `uses`: by default the census
of all TF1 names (tf1compat/census/data/uses.csv, when it is there), its names as `tf.<path>`
or `tensorflow.<module>:<attribute chain>` (`tf.contrib` names among them). Several sources
merge in the order given; a name the first gives is not counted again.
"""

from __future__ import annotations

import csv
import dataclasses
import os
from typing import Iterable

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.surface import spelling

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CENSUS_USES = os.path.join(PACKAGE, "census", "data", "uses.csv")


class WeightsError(Tf1CompatError, ValueError):
    """A uses.csv the probe cannot read."""


@dataclasses.dataclass(frozen=True)
class Weight:
    """One census name: how often it is used, and the probe names its spellings are."""

    name: str
    uses: int
    spellings: tuple[str, ...]


def default_sources() -> list[str]:
    """The census of all names, when it is there."""
    return [path for path in (CENSUS_USES,) if os.path.exists(path)]


def read(path: str) -> list[Weight]:
    """The census names of one uses.csv, in `spelling`'s forms."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
            header = rows[0].keys() if rows else ()
    except OSError as error:
        raise WeightsError(f"--uses {path!r}: cannot read it ({error})") from None
    if rows and not {"name", "uses"} <= set(header):
        raise WeightsError(f"--uses {path!r}: columns {sorted(header)}; a census uses.csv "
                           "has 'name' and 'uses'")
    found: list[Weight] = []
    for line, row in enumerate(rows, 2):
        try:
            if row["name"] == "tf":  # the census's count of `import tensorflow` itself
                name, spellings = row["name"], ("tensorflow",)
            else:
                name, spellings = row["name"], (row["name"],)
            for probe_name in spellings:
                spelling.parse(probe_name)
            found.append(Weight(name, int(row["uses"]), spellings))
        except (spelling.BadName, ValueError) as error:
            raise WeightsError(f"--uses {path!r}, line {line}: {row['name']!r}, "
                               f"{row['uses']!r}: {error}") from None
    return found


def merged(paths: Iterable[str]) -> dict[str, Weight]:
    """The census names over the sources by name, the first source's winning for a name."""
    weights: dict[str, Weight] = {}
    for path in paths:
        for weight in read(path):
            weights.setdefault(weight.name, weight)
    return weights


def probe_names(weights: Iterable[Weight]) -> list[str]:
    return sorted({name for weight in weights for name in weight.spellings})


def names_text(weights: Iterable[Weight]) -> str:
    """The census names for the TF 1.15 dump, one a line."""
    header = "# Census names the TF 1.15 dump resolves besides its walk; written by " \
             "python -m tf1compat.surface.regenerate\n"
    return header + "".join(f"{name}\n" for name in probe_names(weights))
