"""How often public TF1 code uses each name: the weights of the probe's headline number.

A weight source is a census `uses.csv` with columns `name` and `uses`:
- the census of all TF1 names (tf1compat/census/data/uses.csv, when it is there):
  names as `tf.<path>` or `tensorflow.<module>:<attribute chain>`;
- the contrib census (tf1compat/contrib/census_data/uses.csv, told apart by its
  `table` column): names under `tf.contrib.` written without it (`slim.conv2d`), each
  with the spellings scripts used (`attr:layers.flatten`, `import:slim.nets`,
  `from:framework.python.ops:arg_scope`); a name is served when each spelling is.
Several sources merge in the order given; a name the first gives is not counted again.
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
CONTRIB_USES = os.path.join(PACKAGE, "contrib", "census_data", "uses.csv")


class WeightsError(Tf1CompatError, ValueError):
    """A uses.csv the probe cannot read."""


@dataclasses.dataclass(frozen=True)
class Weight:
    """One census name: how often it is used, and the probe names its spellings are."""

    name: str
    uses: int
    spellings: tuple[str, ...]


def contrib_spelling(spelling_text: str) -> str:
    """The probe name of one contrib census spelling ('from:layers:flatten' ->
    'tensorflow.contrib.layers:flatten')."""
    form, _, rest = spelling_text.partition(":")
    if form == "attr":
        return f"tf.contrib.{rest}"
    if form == "import":
        return f"tensorflow.contrib.{rest}"
    if form == "from":
        base, _, item = rest.partition(":")
        return f"{'.'.join(filter(None, ['tensorflow.contrib', base]))}:{item}"
    raise ValueError(f"spelling {spelling_text!r}: expected attr:, import: or from:")


def default_sources() -> list[str]:
    """The census of all names when it exists, then the contrib census."""
    return [path for path in (CENSUS_USES, CONTRIB_USES) if os.path.exists(path)]


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
    contrib = "table" in header
    found: list[Weight] = []
    for line, row in enumerate(rows, 2):
        try:
            if contrib:
                name = f"tf.contrib.{row['name']}"
                spellings = tuple(sorted({contrib_spelling(text) for text in
                                          (row.get("spellings") or "").split()} or {name}))
            elif row["name"] == "tf":  # the census's count of `import tensorflow` itself
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
