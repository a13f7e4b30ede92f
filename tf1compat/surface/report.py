"""What the probe found, summed up: per module, by problem, and weighted by census uses.

The headline is the share of census uses (each census name weighted by how often
public TF1 code uses it) that are served with TF 1.15's kind and signature both
under `run` and after `migrate`: a census name counts when every spelling of it
that TF 1.15 has is the same on both sides. Census names TF 1.15 itself lacks (no
spelling resolves there) are counted apart, not in the share. With a sample of
names, only the census names whose spellings were all probed count.
"""

from __future__ import annotations

import collections
from typing import Any, Iterable

from tf1compat.surface import compare, spelling
from tf1compat.surface.probe import SIDES, Outcome
from tf1compat.surface.weights import Weight

TOP = 30


def _tree(name: str) -> str:
    if name.startswith("tf.contrib"):
        return "tf.contrib"
    return "tf" if name.startswith("tf.") else "imports"


def by_module(found: list[Outcome]) -> list[dict[str, Any]]:
    rows: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for outcome in found:
        row = rows[spelling.top_module(outcome.name)]
        row["names"] += 1
        for side in SIDES:
            row[side] += outcome.same(side)
        row["disagree"] += outcome.same("run") != outcome.same("migrate")
    return [{"module": module, **{key: row[key] for key in ("names", *SIDES, "disagree")}}
            for module, row in sorted(rows.items())]


def _census(found: dict[str, Outcome], census: Iterable[Weight], absent: set[str]
            ) -> dict[str, Any]:
    total = served = lacking = 0
    served_by_side = {side: 0 for side in SIDES}
    unserved = []
    for weight in census:
        if not all(name in found or name in absent for name in weight.spellings):
            continue  # a spelling not probed (a sample)
        present = [found[name] for name in weight.spellings if name in found]
        if not present:
            lacking += weight.uses
            continue
        total += weight.uses
        for side in SIDES:
            if all(outcome.same(side) for outcome in present):
                served_by_side[side] += weight.uses
        failing = [outcome for outcome in present
                   if not (outcome.same("run") and outcome.same("migrate"))]
        if not failing:
            served += weight.uses
            continue
        first = failing[0]
        unserved.append({"name": weight.name, "uses": weight.uses, "spelling": first.name,
                         **{side: first.reason(side) for side in SIDES}})
    unserved.sort(key=lambda row: (-row["uses"], row["name"]))
    return {"uses": total, "served": served, "share": served / total if total else None,
            "share_by_side": {side: count / total if total else None
                              for side, count in served_by_side.items()},
            "uses_tf115_lacks": lacking, "most_used_not_served": unserved[:TOP]}


def _problems(found: list[Outcome], uses: dict[str, int]) -> dict[str, dict[str, Any]]:
    """For each way of differing, the names most used first (then by name)."""
    problems: dict[str, list[dict[str, Any]]] = {}
    for status in compare.STATUSES[1:]:
        rows = []
        for outcome in found:
            sides = [side for side in SIDES if outcome.verdicts[side].status == status]
            if sides:
                rows.append({"name": outcome.name, "uses": uses.get(outcome.name, 0),
                             "sides": sides, "detail": outcome.verdicts[sides[0]].detail})
        rows.sort(key=lambda row: (-row["uses"], -len(row["sides"]), row["name"]))
        problems[status] = {"count": len(rows), "top": rows[:TOP]}
    return problems


def summary(found: list[Outcome], census: list[Weight], absent_in_tf115: Iterable[str]
            ) -> dict[str, Any]:
    """Every number the probe reports, as data (`--json` prints it)."""
    by_name = {outcome.name: outcome for outcome in found}
    trees: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for outcome in found:
        for tree in ("all", _tree(outcome.name)):
            counts = trees[tree]
            counts["names"] += 1
            for side in SIDES:
                counts[side] += outcome.same(side)
            counts["both"] += outcome.same("run") and outcome.same("migrate")
            counts["disagree"] += outcome.same("run") != outcome.same("migrate")
    uses: dict[str, int] = {}
    for weight in census:
        for name in weight.spellings:
            uses[name] = uses.get(name, 0) + weight.uses
    return {"census": _census(by_name, census, set(absent_in_tf115)),
            "names": {tree: dict(counts) for tree, counts in sorted(trees.items())},
            "statuses": {side: dict(collections.Counter(o.verdicts[side].status for o in found))
                         for side in SIDES},
            "modules": by_module(found),
            "problems": _problems(found, uses)}


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def text(data: dict[str, Any]) -> str:
    """The tables and the headline, as `python -m tf1compat.surface` prints them."""
    lines = [f"{'module':<34} {'names':>6} {'run':>6} {'migrate':>8} {'disagree':>9}"]
    for row in data["modules"]:
        lines.append(f"{row['module']:<34} {row['names']:>6} {row['run']:>6} "
                     f"{row['migrate']:>8} {row['disagree']:>9}")
    lines.append("")
    for tree, counts in data["names"].items():
        lines.append(f"{tree}: {counts['names']} names; same kind and signature under run "
                     f"{_share(counts['run'], counts['names'])}, after migrate "
                     f"{_share(counts['migrate'], counts['names'])}, both "
                     f"{_share(counts['both'], counts['names'])}; run and migrate disagree on "
                     f"{counts['disagree']}")
    for side in SIDES:
        statuses = ", ".join(f"{status} {count}" for status, count
                             in sorted(data["statuses"][side].items()))
        lines.append(f"{side}: {statuses}")
    census = data["census"]
    lines += ["", f"census uses served with TF 1.15's kind and signature under both run and "
                  f"migrate: {_share(census['served'], census['uses'])}"
                  f" ({census['uses_tf115_lacks']} more uses are of names TF 1.15 lacks)",
              "census uses so served under each: " + ", ".join(
                  f"{side} {share:.1%}" if share is not None else f"{side} -"
                  for side, share in census["share_by_side"].items()),
              "", "most used census names not served:"]
    for row in census["most_used_not_served"]:
        lines.append(f"  {row['uses']:>5}  {row['name']}  ({row['spelling']})")
        for side in SIDES:
            lines.append(f"         {side}: {row[side][:150]}")
    return "\n".join(lines)
