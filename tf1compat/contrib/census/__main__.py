"""`python -m tf1compat.contrib.census [--report | --folder DIR] [--mirrors DIR] [--baseline]`."""

from __future__ import annotations

import argparse
import collections
import os
import sys

from tf1compat.census import sources, tally
from tf1compat.contrib.census import scan

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "census_data")
USES, REPOS, PER_REPO, BASELINE = (os.path.join(DATA, name) for name in (
    "uses.csv", "repositories.csv", "repository_uses.csv", "baseline.csv"))


def recount(mirrors: str, baseline: bool) -> None:
    from tf1compat.contrib.census.verdict import verdict

    counted = tally.count_repositories(tally.read_rows(REPOS), mirrors, scan.count_source)
    rows = []
    for name, number in counted.ranked():
        said = verdict(name, counted.spellings[name])
        rows.append([name, number, len(counted.repositories[name]), said["table"], said["run"],
                     said["migrate"], " ".join(sorted(counted.spellings[name]))])
    tally.write_rows(USES, ["name", "uses", "repositories", "table", "run", "migrate",
                            "spellings"], rows)
    tally.write_rows(PER_REPO, ["repo", "name", "uses"],
                     [[repo, name, number]
                      for (repo, name), number in sorted(counted.per_repo.items())])
    if baseline or not os.path.exists(BASELINE):
        tally.write_rows(BASELINE, ["name", "run", "migrate"],
                         [[row[0], row[4], row[5]] for row in rows])
    print(f"counted {sum(counted.totals.values())} uses of {len(counted.totals)} names in "
          f"{len({repo for repo, _ in counted.per_repo})} repositories -> {USES}")


def coverage(served: dict[str, bool]) -> tuple[float, float, int, int]:
    """(share of uses served, share of repositories all served, uses, repositories)."""
    uses = {row["name"]: int(row["uses"]) for row in tally.read_rows(USES)}
    total = sum(uses.values())
    covered = sum(number for name, number in uses.items() if served.get(name))
    by_repo: dict[str, bool] = {}
    for row in tally.read_rows(PER_REPO):
        by_repo[row["repo"]] = by_repo.get(row["repo"], True) and bool(served.get(row["name"]))
    return covered / total, sum(by_repo.values()) / len(by_repo), total, len(by_repo)


def report() -> None:
    from tf1compat.contrib.census.verdict import verdict

    rows = tally.read_rows(USES)
    before = {row["name"]: row["run"] == row["migrate"] == "yes"
              for row in tally.read_rows(BASELINE)}
    now, disagree, unserved = {}, [], []
    for row in rows:
        said = verdict(row["name"], row["spellings"].split())
        now[row["name"]] = said["run"] == said["migrate"] == "yes"
        if said["run"] != said["migrate"]:
            disagree.append(f"{row['name']} (run {said['run']}, migrate {said['migrate']})")
        if not now[row["name"]]:
            unserved.append(row)
    using = len({row["repo"] for row in tally.read_rows(PER_REPO)})
    print(f"census: {sum(int(r['uses']) for r in rows)} uses of {len(rows)} tf.contrib names in "
          f"{using} of {len(tally.read_rows(REPOS))} repositories (tf1compat/contrib/census_data)")
    print("served = `run` and `migrate` both serve every spelling the census saw")
    for label, served in (("at the census", before), ("now", now)):
        uses, repos, _, _ = coverage(served)
        print(f"  {label:<14} uses served {uses:6.1%}   repositories fully served {repos:6.1%}")
    print(f"run and migrate disagree on {len(disagree)} names" +
          (": " + ", ".join(disagree[:10]) if disagree else ""))
    print("most used names not served:")
    for row in unserved[:15]:
        print(f"  {row['uses']:>5} uses  {row['repositories']:>3} repos  {row['name']}")


def count_folder(folder: str) -> None:
    totals: collections.Counter = collections.Counter()
    for _, text in sources.folder_python_files(folder):
        totals.update(scan.count_source(text).counts)
    for name, number in totals.most_common():
        print(f"{number:6d}  {name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.contrib.census",
                                     description=__doc__)
    parser.add_argument("--report", action="store_true",
                        help="print the coverage of the committed census, at the census and now")
    parser.add_argument("--folder", help="count the tf.contrib uses of a folder of your own")
    parser.add_argument("--mirrors", metavar="DIR",
                        help="recount from DIR, a folder holding <owner>+<name>/repo git "
                             "directories of the repositories in census_data/repositories.csv")
    parser.add_argument("--baseline", action="store_true",
                        help="with a recount: also record today's verdicts as the baseline")
    args = parser.parse_args(argv)
    if args.report:
        report()
    elif args.folder:
        if not os.path.isdir(args.folder):
            parser.error(f"--folder {args.folder!r} is not a folder")
        count_folder(args.folder)
    else:
        if not args.mirrors or not os.path.isdir(args.mirrors):
            parser.error(f"--mirrors {args.mirrors!r} is not a folder; it must hold the git "
                         "directories of the repositories in census_data/repositories.csv")
        recount(args.mirrors, args.baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
