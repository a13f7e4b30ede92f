"""The census's `tf.contrib` names: how `run` and `migrate` serve each, and the report."""

import subprocess
import sys
from pathlib import Path

import pytest

from tf1compat.census import contrib_report
from tf1compat.census.names import contrib_path, is_contrib
from tf1compat.census.served import migrate_snippet, verdict

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tf1compat" / "census" / "data"


@pytest.mark.parametrize("name, path", [
    ("tf.contrib.layers.flatten", "layers.flatten"),
    ("tensorflow.contrib.framework.python.ops:arg_scope", "framework.arg_scope"),
    ("tensorflow.contrib.slim.python.slim.nets.resnet_v1:resnet_v1_block",
     "slim.nets.resnet_v1.resnet_v1_block"),
    ("tensorflow.contrib.learn.python.learn.preprocessing.text:VocabularyProcessor",
     "learn.preprocessing.VocabularyProcessor"),
    ("tensorflow.contrib.metrics.python.ops.set_ops:set_intersection",
     "metrics.set_intersection"),
])
def test_a_contrib_census_name_reads_as_its_public_path(name, path):
    assert is_contrib(name)
    assert contrib_path(name) == path


def test_names_outside_contrib_are_not_contrib():
    assert not is_contrib("tf.train.Saver")
    assert not is_contrib("tensorflow.python.framework.ops:Tensor")
    assert not is_contrib("tf.contribution")


@pytest.mark.parametrize("spelling, script", [
    ("attr:tensorflow:contrib.layers.flatten",
     "import tensorflow as tf\nvalue = tf.contrib.layers.flatten\n"),
    ("attr:tensorflow.contrib.slim:conv2d",
     "import tensorflow.contrib.slim as module\nvalue = module.conv2d\n"),
    ("import:tensorflow.contrib.slim", "import tensorflow.contrib.slim as module\n"),
    ("from:tensorflow.contrib.layers:flatten",
     "from tensorflow.contrib.layers import flatten\n"),
])
def test_each_spelling_is_tried_as_the_script_wrote_it(spelling, script):
    assert migrate_snippet(spelling) == script


def test_verdicts_try_each_spelling_with_run_and_migrate():
    assert verdict("tf.contrib.layers.flatten", [
        "attr:tensorflow:contrib.layers.flatten", "from:tensorflow.contrib.layers:flatten",
    ]) == {"table": "replaced", "run": "yes", "migrate": "yes"}
    assert verdict("tf.contrib.ffmpeg.decode_audio", [
        "attr:tensorflow:contrib.ffmpeg.decode_audio",
    ]) == {"table": "unknown", "run": "no", "migrate": "no"}


def test_a_name_read_on_a_bound_contrib_module_is_not_served_by_either():
    # the module import is served; what the script reads on it is not, under run as after
    # migrate, and migrate says so instead of passing it over
    said = verdict("tensorflow.contrib.tpu.python.tpu.util:check_positive_integer",
                   ["attr:tensorflow.contrib.tpu.python.tpu:util.check_positive_integer"])
    assert (said["run"], said["migrate"]) == ("no", "no")


def test_the_baseline_holds_a_verdict_for_every_contrib_name_of_the_census():
    rows = contrib_report.contrib_rows(str(DATA))
    baseline = {row["name"]: row for row in
                contrib_report.tally.read_rows(str(DATA / contrib_report.BASELINE))}
    assert len(rows) > 400
    assert {row["name"] for row in rows} == set(baseline)
    assert all(row["run"] in ("yes", "no") and row["migrate"] in ("yes", "no")
               for row in baseline.values())


def test_the_report_prints_coverage_at_the_baseline_and_now_as_the_docs_quote_it():
    result = subprocess.run([sys.executable, "-m", "tf1compat.census", "--contrib"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("census: ") and "tf.contrib names in" in lines[0]
    assert any(line.strip().startswith("at the baseline") and "uses served" in line
               for line in lines)
    assert any(line.strip().startswith("now") and "repositories fully served" in line
               for line in lines)
    docs = (ROOT / "docs" / "contrib.md").read_text()
    quoted = docs.split("<!-- census-report:start -->\n")[1].split("<!-- census-report:end -->")[0]
    assert quoted.splitlines() == lines[:len(quoted.splitlines())], \
        "docs/contrib.md's census figures drifted: paste `python -m tf1compat.census --contrib`"
