"""The attention seq2seq corpus script (greedy and beam decoding) under `run`, after `migrate`,
and in TensorFlow 1.15: it trains 3 steps in each, with the same variable names."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.contrib.seq2seq_reference import REPO_ROOT

SCRIPT = Path(__file__).parent / "scripts" / "attention_seq2seq.py"


def last_json(result):
    assert result.returncode == 0, result.stderr[-6000:]
    return json.loads([line for line in result.stdout.splitlines() if line.startswith("{")][-1])


def env():
    return dict(os.environ, PYTHONPATH=str(REPO_ROOT), TF_CPP_MIN_LOG_LEVEL="2")


def cli(*args, cwd=REPO_ROOT):
    return subprocess.run([sys.executable, "-m", "tf1compat.cli.main", *args], capture_output=True,
                          text=True, timeout=600, env=env(), cwd=str(cwd))


def check_training(report):
    losses = report["losses"]
    assert len(losses) == 3 and losses[2] < losses[0], losses
    assert report["greedy_shape"][0] == 4 and report["beam_shape"][0] == 4
    assert report["beam_shape"][2] == 3  # the beam width


@pytest.fixture(scope="module")
def under_run():
    return last_json(cli("run", str(SCRIPT)))


def test_trains_and_decodes_under_run(under_run):
    check_training(under_run)
    assert "decode/decoder/attention_wrapper/bahdanau_attention/attention_v" in \
        under_run["variables"]


def test_trains_and_decodes_after_migrate(tmp_path, under_run):
    copy = tmp_path / SCRIPT.name
    shutil.copy(SCRIPT, copy)
    migrated = cli("migrate", "--write", str(copy))
    assert migrated.returncode == 0, migrated.stderr[-4000:]
    source = copy.read_text()
    assert "tf1compat.contrib.seq2seq.BeamSearchDecoder" in source
    assert "tf.contrib." not in source.split('"""')[2]  # the code, past the docstring
    report = last_json(subprocess.run([sys.executable, str(copy)], capture_output=True, text=True,
                                      timeout=600, env=env(), cwd=str(tmp_path)))
    check_training(report)
    assert report["variables"] == under_run["variables"]


def test_tf115_names_the_same_variables(under_run, tf1_python):
    # A plain environment: the test process's own (TensorFlow 2 settings) would leak into 1.15.
    tf1_env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"),
               "TF_CPP_MIN_LOG_LEVEL": "2"}
    reference = last_json(subprocess.run([str(tf1_python), str(SCRIPT)], capture_output=True,
                                         text=True, timeout=600, cwd="/tmp", env=tf1_env))
    check_training(reference)
    assert under_run["variables"] == reference["variables"]
