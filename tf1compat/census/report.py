"""`--report`: the totals of a census and its most used names per top-level module."""

from __future__ import annotations

import collections
import os

from tf1compat.census.names import module_path, public
from tf1compat.census.tally import read_rows


def group(name: str, modules: set[str]) -> str:
    """The top-level module a census name is in: `tf.train`, `tf.contrib`, `tensorflow.python`;
    `tf` for names at the top (`tf.placeholder`) and the module itself.

    `modules` holds the `tf.x` that other names are inside of (so `tf.nn` alone is in
    `tf.nn`, `tf.float32` in `tf`).
    """
    parts = module_path(name).split(".")
    if not public(name):
        return ".".join(parts[:2])
    if len(parts) == 1 or (len(parts) == 2 and f"tf.{parts[1]}" not in modules):
        return "tf"
    return f"tf.{parts[1]}"


def lines(data: str, top: int = 5, modules: int = 15) -> list[str]:
    """The report of the census in the folder `data`, as lines."""
    uses = read_rows(os.path.join(data, "uses.csv"))
    per_repo = read_rows(os.path.join(data, "repository_uses.csv"))
    repositories = read_rows(os.path.join(data, "repositories.csv"))
    inside = {".".join(row["name"].split(".")[:2]) for row in uses
              if public(row["name"]) and row["name"].count(".") >= 2}
    groups: dict[str, list[dict]] = collections.defaultdict(list)
    for row in uses:
        groups[group(row["name"], inside)].append(row)
    repos_of: dict[str, set] = collections.defaultdict(set)
    for row in per_repo:
        repos_of[group(row["name"], inside)].add(row["repo"])

    def total(rows) -> int:
        return sum(int(row["uses"]) for row in rows)

    using = {row["repo"] for row in per_repo}
    kinds = {"public API, tf.<path>": [r for r in uses if public(r["name"])],
             "source-tree paths, tensorflow.<module>:<name>":
                 [r for r in uses if not public(r["name"])]}
    out = [f"census: {total(uses)} uses of {len(uses)} TensorFlow names in {len(using)} of "
           f"{len(repositories)} repositories (tf1compat/census/data)"]
    for label, rows in kinds.items():
        out.append(f"  {label + ':':<48} {total(rows):>7} uses of {len(rows):>5} names")
    files = {key: sum(int(row.get(key) or 0) for row in repositories)
             for key in ("python_files", "tensorflow_files", "unparsed_files")}
    out.append(f"  .py files: {files['python_files']} read, {files['tensorflow_files']} use "
               f"TensorFlow, {files['unparsed_files']} name it but do not parse (Python 2: "
               "not counted)")
    ranked = sorted(groups, key=lambda g: (-total(groups[g]), g))
    out.append(f"most used names of the {min(modules, len(ranked))} most used top-level "
               "modules (uses, repositories):")
    for name in ranked[:modules]:
        rows = groups[name]
        out.append(f"{name:<22} {total(rows):>7} uses  {len(repos_of[name]):>3} repositories  "
                   f"{len(rows):>5} names")
        for row in rows[:top]:  # uses.csv is sorted by uses
            out.append(f"    {int(row['uses']):>6}  {int(row['repositories']):>3}  {row['name']}")
    rest = ranked[modules:]
    if rest:
        out.append(f"{len(rest)} more: " + ", ".join(f"{g} {total(groups[g])}" for g in rest))
    return out
