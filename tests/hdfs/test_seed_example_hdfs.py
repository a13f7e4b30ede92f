"""The CSV-from-HDFS example the project exists for, verbatim, on a real MiniDFS.

The example's own lines (only the NameNode address changed) use a TF 0.x name
(`tf.pack`) and string_input_producer's default, a new file order each epoch.
Under `tf1compat run`, and after `tf1compat migrate --write` under plain
`python`, it must read the right rows: every epoch both files whole, each
file's rows in order, the file order drawn anew (both orders occur in 60
epochs). A harness before the example records what each `sess.run` of the
example returned (called from the file itself: the queue runners' and the
pipeline's own runs are not the example's), and one after it prints that as JSON.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.hdfs

SEED_EXAMPLE = """\
filename_queue = tf.train.string_input_producer(["hdfs://namenode:8020/path/to/fileA.csv", "hdfs://namenode:8020/path/to/fileB.csv"])
reader = tf.TextLineReader()
key, value = reader.read(filename_queue)
record_defaults = [[1], [1], [1], [1], [1]]
col1, col2, col3, col4, col5 = tf.decode_csv(value, record_defaults=record_defaults)
features = tf.pack([col1, col2, col3, col4])
with tf.Session() as sess:
  coord = tf.train.Coordinator()
  threads = tf.train.start_queue_runners(coord=coord)
  for i in range(1200):
    example, label = sess.run([features, col5])
  coord.request_stop()
  coord.join(threads)
"""

HARNESS = """\
import json
import sys
import tensorflow as tf
from tensorflow.python.client import session as _session_lib

_seen = []
_run = _session_lib.BaseSession.run


def _recording_run(self, *args, **kwargs):
    out = _run(self, *args, **kwargs)
    if sys._getframe(1).f_code.co_filename == __file__:  # the example's own sess.run
        _seen.append(out)
    return out


_session_lib.BaseSession.run = _recording_run
"""

REPORT = """
print(json.dumps([[example.tolist(), int(label)] for example, label in _seen]))
"""

ROWS = 10  # per file: labels 0-9 in fileA, 10-19 in fileB


def file_rows(first_label: int) -> list:
    return [[label * 10 + c for c in range(1, 5)] + [label]
            for label in range(first_label, first_label + ROWS)]


def check_rows(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-6000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("[")]
    reads = json.loads(lines[-1])
    assert len(reads) == 1200
    expected = {"A": file_rows(0), "B": file_rows(ROWS)}
    for example, label in reads:
        assert example == [label * 10 + c for c in range(1, 5)]  # tf.pack of the row's columns
    orders = set()
    for epoch in range(1200 // (2 * ROWS)):
        rows = [example + [label] for example, label in reads[epoch * 20:(epoch + 1) * 20]]
        halves = (rows[:ROWS], rows[ROWS:])
        order = tuple(name for half in halves for name, want in expected.items() if half == want)
        assert sorted(order) == ["A", "B"], (epoch, rows)  # whole files, rows in order
        orders.add(order)
    assert orders == {("A", "B"), ("B", "A")}  # the file order is drawn each epoch


@pytest.fixture(scope="module")
def seed_files(minidfs):
    """fileA.csv and fileB.csv at the example's own paths (/path/to/), written once."""
    from hdfs_native import Client

    client = Client(minidfs.url)
    client.mkdirs("/path/to", 0o755, True)
    for name, first in (("fileA.csv", 0), ("fileB.csv", ROWS)):
        client.delete(f"/path/to/{name}")
        text = "".join(",".join(map(str, row)) + "\n" for row in file_rows(first))
        with client.create(f"/path/to/{name}") as handle:
            handle.write(text.encode())


@pytest.fixture
def seed_script(minidfs, seed_files, tmp_path):
    example = SEED_EXAMPLE.replace("namenode:8020", minidfs.url.split("://", 1)[1])
    path = tmp_path / "seed_example.py"
    path.write_text(HARNESS + example + REPORT)
    return path


def _run(args, env, cwd):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=600,
                          env=env, cwd=cwd)


def test_the_seed_example_reads_the_right_rows_under_run(seed_script, plugin_env):
    result = _run(["-m", "tf1compat.cli.main", "run", str(seed_script)], plugin_env,
                  seed_script.parent)
    check_rows(result)
    assert "tf.pack -> tf.compat.v1.stack" in result.stderr + result.stdout


def test_the_seed_example_reads_the_right_rows_after_migrate(seed_script, plugin_env, tmp_path):
    migrated = tmp_path / "migrated" / "seed_example.py"
    migrated.parent.mkdir()
    shutil.copy(seed_script, migrated)
    result = _run(["-m", "tf1compat.cli.main", "migrate", "--write", str(migrated)], plugin_env,
                  tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    source = migrated.read_text()
    assert "tf.stack([col1, col2, col3, col4])" in source
    assert "string_input_producer" not in source and "TextLineReader" not in source
    assert "shuffle=False, shuffle_files=True" in source and 'read="record"' in source
    env = dict(plugin_env)
    env.pop("TF1COMPAT_RUN", None)
    check_rows(_run([str(migrated)], env, migrated.parent))


FALLBACK_CHECK = """
import json, sys
from modern.input_pipeline import input_pipeline
from tf1compat.shared.errors import OptionError
files = sys.argv[1:]
rows = [list(map(int, row)) for batch in input_pipeline(
    files, [[1]] * 5, shuffle_files=True, seed=4, num_epochs=6, batch_size=7)
    for row in zip(*batch)]
try:
    input_pipeline(files, [[1]] * 5, shuffle_files=True, num_epochs=None).dataset
    forever = None
except OptionError as error:
    forever = str(error)
print(json.dumps({"rows": rows, "forever": forever}))
"""


def test_shuffle_files_without_the_plugin_reads_whole_files_per_epoch(minidfs, seed_files,
                                                                      plugin_env):
    files = [f"{minidfs.url}/path/to/{name}" for name in ("fileA.csv", "fileB.csv")]
    env = dict(plugin_env, TF1COMPAT_HDFS_PLUGIN="0")  # the pure-Python hdfs-native reader
    result = _run(["-c", FALLBACK_CHECK, *files], env, None)
    assert result.returncode == 0, result.stderr[-4000:]
    got = json.loads(result.stdout.splitlines()[-1])
    rows, orders = got["rows"], set()
    assert len(rows) == 6 * 2 * ROWS
    for epoch in range(6):
        halves = (rows[epoch * 20:epoch * 20 + ROWS], rows[epoch * 20 + ROWS:(epoch + 1) * 20])
        orders.add(tuple("A" if half == file_rows(0) else "B" if half == file_rows(ROWS)
                         else None for half in halves))
    assert orders <= {("A", "B"), ("B", "A")} and len(orders) == 2
    assert "shuffle_files" in got["forever"] and "num_epochs" in got["forever"]
