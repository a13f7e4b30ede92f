"""The tf.contrib census: what it counts in source, the committed data, and the report."""

import csv
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tf1compat.contrib.census import scan, sources
from tf1compat.contrib.census.verdict import verdict

DATA = Path(__file__).resolve().parents[2] / "tf1compat" / "contrib" / "census_data"
MIRRORS = os.environ.get("TF1COMPAT_CENSUS_MIRRORS", "")


def counts(source: str) -> dict:
    return dict(scan.count_source(textwrap.dedent(source)).counts)


def test_attribute_chains_on_tensorflow_are_counted_each_time():
    assert counts("""
        import tensorflow as tf
        w = tf.contrib.layers.xavier_initializer()
        v = tf.contrib.layers.xavier_initializer(uniform=False)
        cell = tf.contrib.rnn.LSTMStateTuple(1, 2)
        """) == {"layers.xavier_initializer": 2, "rnn.LSTMStateTuple": 1}


def test_imported_modules_prefix_the_names_read_from_them():
    assert counts("""
        import tensorflow as tf
        import tensorflow.contrib.slim as slim
        from tensorflow.contrib import rnn
        layers = tf.contrib.layers
        def net(x):
            return slim.conv2d(slim.conv2d(x, 3, 3), 3, 3), rnn.GRUCell(4), layers.flatten(x)
        """) == {"slim": 1, "rnn": 1, "layers": 1, "slim.conv2d": 2, "rnn.GRUCell": 1,
                 "layers.flatten": 1}


def test_imported_names_count_their_import_and_each_reference():
    assert counts("""
        def f(x):
            from tensorflow.contrib.layers import flatten
            return flatten(flatten(x))
        """) == {"layers.flatten": 3}


def test_deep_module_paths_are_counted_under_the_public_name():
    found = scan.count_source(textwrap.dedent("""
        from tensorflow.contrib.framework.python.ops import arg_scope
        from tensorflow.contrib.layers.python.layers import initializers
        import tensorflow.contrib.slim.python.slim.data.parallel_reader as parallel_reader
        with arg_scope.arg_scope([]):
            w = initializers.xavier_initializer()
            parallel_reader.parallel_read
        """))
    assert dict(found.counts) == {"framework.arg_scope": 2, "layers.initializers": 1,
                                  "layers.xavier_initializer": 1, "slim.parallel_reader": 1,
                                  "slim.parallel_reader.parallel_read": 1}
    assert found.spellings["framework.arg_scope"] == {
        "from:framework.python.ops:arg_scope", "attr:framework.python.ops.arg_scope.arg_scope"}


@pytest.mark.parametrize("raw, public", [
    ("slim.python.slim.learning.train", "slim.learning.train"),
    ("slim.python.slim.nets.resnet_v1.resnet_v1_50", "slim.nets.resnet_v1.resnet_v1_50"),
    ("learn.python.learn.preprocessing.text.VocabularyProcessor",
     "learn.preprocessing.VocabularyProcessor"),
    ("metrics.python.ops.set_ops.set_intersection", "metrics.set_intersection"),
    ("learn.ModeKeys.TRAIN", "learn.ModeKeys"),
    ("rnn.__dict__.values", "rnn"),
])
def test_public_names(raw, public):
    assert scan.public_name(raw) == public


def test_files_that_do_not_parse_or_do_not_mention_contrib_count_nothing():
    assert counts("print 'python 2'\ntf.contrib.layers.flatten(x)\n") == {}
    assert counts("import tensorflow as tf\ntf.layers.dense(x, 2)\n") == {}


def _rows(name):
    with open(DATA / name, newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_committed_census_is_consistent():
    repositories = _rows("repositories.csv")
    uses = _rows("uses.csv")
    per_repo = _rows("repository_uses.csv")
    assert len(repositories) >= 30
    assert len({row["kind"].split("/")[1] for row in repositories}) >= 6  # nlp, vision, rl, ...
    assert all(len(row["commit"]) == 40 for row in repositories)
    assert {row["repo"] for row in per_repo} <= {row["repo"] for row in repositories}
    by_name = {}
    for row in per_repo:
        by_name.setdefault(row["name"], []).append(int(row["uses"]))
    for row in uses:
        assert int(row["uses"]) == sum(by_name[row["name"]]), row["name"]
        assert int(row["repositories"]) == len(by_name[row["name"]]), row["name"]
        assert row["run"] in ("yes", "no") and row["migrate"] in ("yes", "no")


def test_a_recount_of_one_repository_gives_the_committed_rows():
    repo = "sherjilozair/char-rnn-tensorflow"
    if not MIRRORS:
        pytest.skip("TF1COMPAT_CENSUS_MIRRORS is unset: set it to a folder holding the git "
                    "directories of the census repositories to recount one")
    try:
        git = sources.git_dir(MIRRORS, repo)
    except FileNotFoundError:
        pytest.skip(f"no git directory of {repo} under {MIRRORS} (set "
                    "TF1COMPAT_CENSUS_MIRRORS to a folder of fetched repositories)")
    commit = next(row["commit"] for row in _rows("repositories.csv") if row["repo"] == repo)
    total = {}
    for _, text in sources.git_python_files(git, commit):
        for name, number in scan.count_source(text).counts.items():
            total[name] = total.get(name, 0) + number
    assert total == {row["name"]: int(row["uses"]) for row in _rows("repository_uses.csv")
                     if row["repo"] == repo}


def test_verdicts_try_each_spelling_with_run_and_migrate():
    assert verdict("layers.flatten", ["attr:layers.flatten", "from:layers:flatten"]) == \
        {"table": "replaced", "run": "yes", "migrate": "yes"}
    assert verdict("ffmpeg.decode_audio", ["attr:ffmpeg.decode_audio"]) == \
        {"table": "unknown", "run": "no", "migrate": "no"}


def test_the_report_prints_coverage_at_the_census_and_now():
    result = subprocess.run([sys.executable, "-m", "tf1compat.contrib.census", "--report"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert any(line.strip().startswith("at the census") and "uses served" in line
               for line in lines)
    assert any(line.strip().startswith("now") and "repositories fully served" in line
               for line in lines)
    readme = (DATA.parents[2] / "docs" / "contrib.md").read_text()
    quoted = readme.split("<!-- census-report:start -->\n")[1].split("<!-- census-report:end -->")[0]
    assert quoted.splitlines() == lines[:len(quoted.splitlines())], \
        "docs/contrib.md's census figures drifted: paste `python -m tf1compat.contrib.census --report`"
