"""`python -m tf1compat.census [--mirrors DIR [--repo R]] [--report] [--contrib] [--folder DIR]
[--data DIR]`."""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time
from typing import NoReturn

from tf1compat.census import contrib_report, report, scan, sources, tally

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
# What a recount writes into repositories.csv beside the columns it reads (repo, commit, ...).
COUNTED = ["python_files", "tensorflow_files", "unparsed_files", "uses", "names"]


def fail(message: str) -> NoReturn:
    print(f"python -m tf1compat.census: error: {message}", file=sys.stderr)
    sys.exit(2)


def listed(data: str, wanted: list[str] | None) -> list[dict[str, str]]:
    """The rows of `data`/repositories.csv (only those of `wanted`, when given)."""
    path = os.path.join(data, "repositories.csv")
    if not os.path.isfile(path):
        fail(f"no repositories.csv in --data {data!r}")
    rows = tally.read_rows(path)
    if not wanted:
        return rows
    known = {row["repo"]: row for row in rows}
    unknown = [repo for repo in wanted if repo not in known]
    if unknown:
        fail(f"unknown repository {unknown[0]!r}: {path} lists {len(rows)} (owner/name, "
             f"such as {rows[0]['repo']!r})")
    return [known[repo] for repo in wanted]


def count(rows: list[dict[str, str]], mirrors: str) -> tally.Tally:
    try:
        return tally.count_repositories(rows, mirrors, scan.count_source)
    except FileNotFoundError as error:  # sources.git_dir names the repository and the path
        fail(str(error))
    except subprocess.CalledProcessError as error:
        fail(f"git failed on {error.cmd[1]}: {error.stderr.decode(errors='replace').strip()} "
             "(is the listed commit in that snapshot?)")


def recount(data: str, mirrors: str) -> None:
    """Counts every listed repository and writes uses.csv, repository_uses.csv and the counted
    columns of repositories.csv in `data`."""
    started = time.monotonic()
    rows = listed(data, None)
    counted = count(rows, mirrors)
    tally.write_rows(os.path.join(data, "uses.csv"), ["name", "uses", "repositories", "spellings"],
                     [[name, number, len(counted.repositories[name]),
                       " ".join(sorted(counted.spellings[name]))]
                      for name, number in counted.ranked()])
    tally.write_rows(os.path.join(data, "repository_uses.csv"), ["repo", "name", "uses"],
                     [[repo, name, number]
                      for (repo, name), number in sorted(counted.per_repo.items())])
    names, uses = collections.Counter(), collections.Counter()
    for (repo, _), number in counted.per_repo.items():
        names[repo] += 1
        uses[repo] += number
    header = [key for key in rows[0] if key not in COUNTED] + COUNTED
    for row in rows:
        repo = row["repo"]
        row.update(python_files=counted.files[repo], tensorflow_files=counted.using[repo],
                   unparsed_files=counted.unparsed[repo], uses=uses[repo], names=names[repo])
    tally.write_rows(os.path.join(data, "repositories.csv"), header,
                     [[row[key] for key in header] for row in rows])
    print(f"counted {sum(counted.totals.values())} uses of {len(counted.totals)} names in "
          f"{len(rows)} repositories in {time.monotonic() - started:.0f} s -> {data}")


def print_counts(counted: tally.Tally, where: str) -> None:
    for name, number in counted.ranked():
        print(f"{number:6d}  {name}")
    print(f"{sum(counted.totals.values())} uses of {len(counted.totals)} TensorFlow names in "
          f"{sum(counted.using.values())} of {sum(counted.files.values())} .py files of {where}"
          + (f" ({sum(counted.unparsed.values())} do not parse)"
             if sum(counted.unparsed.values()) else ""))


def count_folder(folder: str) -> tally.Tally:
    counted = tally.Tally()
    for _, text in sources.folder_python_files(folder):
        counted.add(folder, scan.count_source(text))
    return counted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.census", description=__doc__)
    parser.add_argument("--mirrors", metavar="DIR",
                        help="recount from DIR, a folder holding <owner>+<name>/repo git "
                             "directories of the repositories in repositories.csv")
    parser.add_argument("--repo", action="append", metavar="OWNER/NAME",
                        help="with --mirrors: print the counts of this listed repository "
                             "(repeatable) instead of rewriting the data")
    parser.add_argument("--report", action="store_true",
                        help="print the totals and the most used names per top-level module")
    parser.add_argument("--top", type=int, default=5, help="names per module in --report")
    parser.add_argument("--modules", type=int, default=15, help="modules in --report")
    parser.add_argument("--contrib", action="store_true",
                        help="print the share of the tf.contrib uses `run` and `migrate` serve, "
                             "at the baseline and now")
    parser.add_argument("--contrib-baseline", action="store_true",
                        help="record today's tf.contrib verdicts as the baseline")
    parser.add_argument("--folder", metavar="DIR", help="count the .py files of a folder")
    parser.add_argument("--data", metavar="DIR", default=DATA,
                        help="the census's folder (repositories.csv, uses.csv, "
                             "repository_uses.csv); default: the committed census")
    args = parser.parse_args(argv)
    if args.report:
        for line in report.lines(args.data, args.top, args.modules):
            print(line)
    elif args.contrib_baseline:
        print(f"recorded {contrib_report.write_baseline(args.data)}")
    elif args.contrib:
        for line in contrib_report.lines(args.data):
            print(line)
    elif args.folder is not None:
        if not os.path.isdir(args.folder):
            fail(f"--folder {args.folder!r} is not a folder")
        print_counts(count_folder(args.folder), args.folder)
    elif args.mirrors is None or not os.path.isdir(args.mirrors):
        fail(f"--mirrors {args.mirrors!r} is not a folder: give the folder holding the "
             "<owner>+<name>/repo git directories of the repositories in "
             f"{os.path.join(args.data, 'repositories.csv')} (or --report, or --folder DIR)")
    elif args.repo:
        print_counts(count(listed(args.data, args.repo), args.mirrors), ", ".join(args.repo))
    else:
        recount(args.data, args.mirrors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
