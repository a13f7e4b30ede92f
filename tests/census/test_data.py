"""The committed census: its repositories, its sums, its names; and a recount of real ones."""

import collections
import csv
import os
import re
from pathlib import Path

import pytest

from tf1compat.census import scan, sources, tally

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tf1compat" / "census" / "data"
MIRRORS = os.environ.get("TF1COMPAT_CENSUS_MIRRORS", "")
KINDS = {"object detection", "time series", "graph freezing/export", "deployment/serving",
         "distributed training", "Keras-on-TF1 application", "course or book code", "blog code"}
NAME = re.compile(r"tf(\.\w+)*|tensorflow(\.\w+)*:\w+")
SPELLING = re.compile(r"import:tensorflow(\.\w+)*|from:tensorflow(\.\w+)*:(\w+|\*)"
                      r"|attr:tensorflow(\.\w+)*:(\w+(\.\w+)*)?")


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def census():
    return {name: _rows(DATA / f"{name}.csv")
            for name in ("repositories", "uses", "repository_uses")}


def test_the_repositories_are_the_contrib_census_and_at_least_twenty_more(census):
    repositories = census["repositories"]
    assert len(repositories) >= 65
    assert len({row["repo"] for row in repositories}) == len(repositories)
    assert all(re.fullmatch(r"[0-9a-f]{40}", row["commit"]) for row in repositories)
    # the 45 first chosen for their tf.contrib uses, across the kinds of TF1 code
    first = [row for row in repositories if row["chosen_as"] == "contrib census"]
    assert len(first) == 45
    assert len({row["kind"].split("/")[1] for row in first}) >= 6  # nlp, vision, rl, ...
    added = [row for row in repositories if row["chosen_as"] != "contrib census"]
    assert len(added) >= 20
    assert {row["chosen_as"] for row in added} == KINDS
    assert all(collections.Counter(row["chosen_as"] for row in added)[kind] == 3 for kind in KINDS)


def test_the_rule_and_each_chosen_repository_are_written_down_with_the_data(census):
    readme = (DATA / "README.md").read_text()
    assert "**The rule.**" in readme and "**The commit**" in readme
    missing = [row["repo"] for row in census["repositories"]
               if row["chosen_as"] != "contrib census" and f"**{row['repo']}**" not in readme]
    assert not missing, f"data/README.md does not name {missing}"


def test_per_repository_uses_add_up_to_the_totals(census):
    by_name = collections.defaultdict(list)
    by_repo = collections.defaultdict(list)
    for row in census["repository_uses"]:
        by_name[row["name"]].append(int(row["uses"]))
        by_repo[row["repo"]].append(int(row["uses"]))
    assert set(by_repo) <= {row["repo"] for row in census["repositories"]}
    assert set(by_name) == {row["name"] for row in census["uses"]}
    for row in census["uses"]:
        assert int(row["uses"]) == sum(by_name[row["name"]]), row["name"]
        assert int(row["repositories"]) == len(by_name[row["name"]]), row["name"]
    for row in census["repositories"]:
        assert int(row["uses"]) == sum(by_repo[row["repo"]]), row["repo"]
        assert int(row["names"]) == len(by_repo[row["repo"]]), row["repo"]
        assert int(row["tensorflow_files"]) + int(row["unparsed_files"]) \
            <= int(row["python_files"]), row["repo"]


def test_uses_are_sorted_and_every_name_and_spelling_is_in_the_canonical_form(census):
    uses = census["uses"]
    assert [int(row["uses"]) for row in uses] == sorted((int(row["uses"]) for row in uses),
                                                        reverse=True)
    bad_names = [row["name"] for row in uses if not NAME.fullmatch(row["name"])]
    bad_spellings = [spelling for row in uses for spelling in row["spellings"].split()
                     if not SPELLING.fullmatch(spelling)]
    assert not bad_names and not bad_spellings, (bad_names[:5], bad_spellings[:5])
    names = {row["name"] for row in uses}
    # what the contrib census counts is in this one too, under its tf.contrib name
    assert {"tf.contrib.slim.conv2d", "tf.contrib.layers.xavier_initializer",
            "tensorflow.contrib.framework.python.ops:arg_scope"} <= names
    assert "tensorflow.python.framework.graph_util:convert_variables_to_constants" in names


@pytest.mark.parametrize("repo", ["sherjilozair/char-rnn-tensorflow",
                                  "amir-abdi/keras_to_tensorflow"])
def test_a_recount_of_one_repository_gives_the_committed_rows(repo):
    if not MIRRORS:
        pytest.skip("TF1COMPAT_CENSUS_MIRRORS is unset: set it to a folder holding the git "
                    "directories of the census repositories (<owner>+<name>/repo) to recount one")
    try:
        sources.git_dir(MIRRORS, repo)
    except FileNotFoundError:
        pytest.skip(f"no git directory of {repo} under {MIRRORS} (set "
                    "TF1COMPAT_CENSUS_MIRRORS to a folder of fetched repositories)")
    row = next(row for row in _rows(DATA / "repositories.csv") if row["repo"] == repo)
    counted = tally.count_repositories([row], MIRRORS, scan.count_source)
    assert dict(counted.totals) == {r["name"]: int(r["uses"])
                                    for r in _rows(DATA / "repository_uses.csv")
                                    if r["repo"] == repo}
    assert counted.files[repo] == int(row["python_files"])
