"""How often the census saw one TF1 name, as the error for a name tf1compat does not serve says.

A user whose script stops on a name we do not serve should learn whether it is rare or one
many scripts reach (then worth asking for); the numbers come from the committed census
(tf1compat/census/data/uses.csv), read once, only when such an error is raised.
"""

from __future__ import annotations

import collections
import csv
import functools
import os
from typing import Optional

from tf1compat.census.names import contrib_path, is_contrib

USES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "uses.csv")
REPOSITORIES = os.path.join(os.path.dirname(USES), "repositories.csv")
REPOSITORY_USES = os.path.join(os.path.dirname(USES), "repository_uses.csv")


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, tuple[int, int]], int]:
    """({census name: (uses, repositories)}, how many repositories the census read)."""
    try:
        with open(USES, encoding="utf-8", newline="") as handle:
            counts = {row["name"]: (int(row["uses"]), int(row["repositories"]))
                      for row in csv.DictReader(handle)}
        with open(REPOSITORIES, encoding="utf-8", newline="") as handle:
            repositories = sum(1 for _ in csv.DictReader(handle))
    except (OSError, KeyError, ValueError):  # no census installed: the errors just say less
        return {}, 0
    try:
        with open(REPOSITORY_USES, encoding="utf-8", newline="") as handle:
            counts.update(_contrib_by_public_name(csv.DictReader(handle)))
    except (OSError, KeyError, ValueError):  # contrib names counted by their spelling only
        pass
    return counts, repositories


def _contrib_by_public_name(per_repository) -> dict[str, tuple[int, int]]:
    """The uses of each `tf.contrib` name summed over its spellings, under its public name:
    run's errors name `tf.contrib.tpu.check_positive_integer`, which scripts wrote as
    `tensorflow.contrib.tpu.python.tpu.util.check_positive_integer` too."""
    uses: dict[str, int] = collections.Counter()
    repositories: dict[str, set] = collections.defaultdict(set)
    for row in per_repository:
        if is_contrib(row["name"]):
            public = ".".join(filter(None, ["tf.contrib", contrib_path(row["name"])]))
            uses[public] += int(row["uses"])
            repositories[public].add(row["repo"])
    return {name: (uses[name], len(repositories[name])) for name in uses}


def census_name(path: str) -> str:
    """The census's name for a TF1 name as the runner writes it: `contrib.rnn.X` (a `tf.` path)
    -> 'tf.contrib.rnn.X'; 'python.framework.ops.name' (a private path) ->
    'tensorflow.python.framework.ops:name'."""
    if path.startswith("tf.") or path.startswith("tensorflow."):
        return path
    if path.startswith("python."):
        module, _, name = path.rpartition(".")
        return f"tensorflow.{module}:{name}"
    return f"tf.{path}"


def count(path: str) -> Optional[tuple[int, int]]:
    """(uses, repositories) of the name in the census, or None when it never appears."""
    return _table()[0].get(census_name(path))


def said(path: str) -> str:
    """'used 17 times in 4 of the census's 69 repositories of TF1 code', or that it is not
    used there ('' when the census data is not installed)."""
    counts, repositories = _table()
    if not counts:
        return ""
    found = counts.get(census_name(path))
    if found is None:
        return f"not used in any of the census's {repositories} repositories of TF1 code"
    uses, where = found
    times = "once" if uses == 1 else f"{uses} times"
    return f"used {times} in {where} of the census's {repositories} repositories of TF1 code"
