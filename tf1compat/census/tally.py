"""Uses per file, summed over repositories, and the CSV files a census is kept in."""

from __future__ import annotations

import collections
import csv
import dataclasses
from typing import Callable, Iterable

from tf1compat.census import sources


@dataclasses.dataclass
class Uses:
    """The uses one source makes: name -> count, and the spellings seen for each name.

    `unparsed` is set for a source that names what is counted but does not parse.
    """

    counts: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    spellings: dict[str, set[str]] = dataclasses.field(
        default_factory=lambda: collections.defaultdict(set))
    unparsed: bool = False

    def record(self, name: str, spelling: str) -> None:
        self.counts[name] += 1
        self.spellings[name].add(spelling)


@dataclasses.dataclass
class Tally:
    """Uses summed over repositories: per name, and per (repository, name); and per
    repository its .py files, those with a use and those that did not parse."""

    totals: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    repositories: dict[str, set[str]] = dataclasses.field(
        default_factory=lambda: collections.defaultdict(set))
    spellings: dict[str, set[str]] = dataclasses.field(
        default_factory=lambda: collections.defaultdict(set))
    per_repo: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    files: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    using: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    unparsed: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def add(self, repo: str, uses: Uses) -> None:
        self.files[repo] += 1
        self.using[repo] += bool(uses.counts)
        self.unparsed[repo] += uses.unparsed
        for name, number in uses.counts.items():
            self.totals[name] += number
            self.repositories[name].add(repo)
            self.spellings[name] |= uses.spellings[name]
            self.per_repo[(repo, name)] += number

    def ranked(self) -> list[tuple[str, int]]:
        """(name, uses), most used first, then by name."""
        return sorted(self.totals.items(), key=lambda item: (-item[1], item[0]))


def count_repositories(repositories: Iterable[dict[str, str]], mirrors: str,
                       count_source: Callable[[str], Uses]) -> Tally:
    """The uses of every .py file of each repository at its commit (git directories under
    `mirrors`, see `sources.git_dir`)."""
    tally = Tally()
    for row in repositories:
        git = sources.git_dir(mirrors, row["repo"])
        for _, text in sources.git_python_files(git, row["commit"]):
            tally.add(row["repo"], count_source(text))
    return tally


def read_rows(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_rows(path: str, header: list[str], rows: Iterable[Iterable]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
