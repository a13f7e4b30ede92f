"""`--contrib`: the share of the census's `tf.contrib` uses that `run` and `migrate` serve.

The census counts `tf.contrib` names as it counts every TensorFlow name; this report takes
its contrib rows (`names.is_contrib`), asks `served.verdict` of each with the spellings the
census saw, and prints the share of uses served and of repositories whose every contrib use
is served: when the baseline was recorded (`contrib_baseline.csv` beside the data, written
by `--contrib-baseline`) and now.
"""

from __future__ import annotations

import os

from tf1compat.census import served, tally
from tf1compat.census.names import is_contrib

BASELINE = "contrib_baseline.csv"


def contrib_rows(data: str) -> list[dict[str, str]]:
    """The census's contrib rows of uses.csv, most used first."""
    return [row for row in tally.read_rows(os.path.join(data, "uses.csv"))
            if is_contrib(row["name"])]


def verdicts(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {row["name"]: served.verdict(row["name"], row["spellings"].split()) for row in rows}


def write_baseline(data: str) -> str:
    """Records today's verdicts as the baseline; returns its path."""
    path = os.path.join(data, BASELINE)
    said = verdicts(contrib_rows(data))
    tally.write_rows(path, ["name", "table", "run", "migrate"],
                     [[name, v["table"], v["run"], v["migrate"]] for name, v in said.items()])
    return path


def coverage(rows: list[dict[str, str]], is_served: dict[str, bool]) -> tuple[float, float]:
    """(share of the uses in `rows` (repository_uses.csv's) served, share of their
    repositories whose every use is served)."""
    total = sum(int(row["uses"]) for row in rows)
    if not total:
        return 0.0, 0.0
    covered = sum(int(row["uses"]) for row in rows if is_served.get(row["name"]))
    by_repo: dict[str, bool] = {}
    for row in rows:
        by_repo[row["repo"]] = by_repo.get(row["repo"], True) and bool(is_served.get(row["name"]))
    return covered / total, sum(by_repo.values()) / len(by_repo)


def lines(data: str, unserved_shown: int = 15) -> list[str]:
    rows = contrib_rows(data)
    names = {row["name"] for row in rows}
    now = verdicts(rows)
    baseline_path = os.path.join(data, BASELINE)
    before = {row["name"]: row["run"] == row["migrate"] == "yes"
              for row in tally.read_rows(baseline_path)} if os.path.exists(baseline_path) else {}
    is_served = {name: v["run"] == v["migrate"] == "yes" for name, v in now.items()}
    per_repo = [row for row in tally.read_rows(os.path.join(data, "repository_uses.csv"))
                if row["name"] in names]
    using = {row["repo"] for row in per_repo}
    repositories = tally.read_rows(os.path.join(data, "repositories.csv"))
    out = [f"census: {sum(int(row['uses']) for row in rows)} uses of {len(rows)} tf.contrib "
           f"names in {len(using)} of {len(repositories)} repositories (tf1compat/census/data)",
           "served = `run` and `migrate` both serve every spelling the census saw"]
    for label, said in (("at the baseline", before), ("now", is_served)):
        if said:
            uses, repos = coverage(per_repo, said)
            out.append(f"  {label:<15} uses served {uses:6.1%}   repositories fully served "
                       f"{repos:6.1%}")
    disagree = [f"{name} (run {v['run']}, migrate {v['migrate']})"
                for name, v in now.items() if v["run"] != v["migrate"]]
    out.append(f"run and migrate disagree on {len(disagree)} names" +
               (": " + ", ".join(disagree[:10]) if disagree else ""))
    out.append("most used names not served:")
    for row in [row for row in rows if not is_served[row["name"]]][:unserved_shown]:
        out.append(f"  {row['uses']:>5} uses  {row['repositories']:>3} repos  {row['name']}")
    return out
