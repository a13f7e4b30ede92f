"""Acceptance: every legacy script (a) runs under `tf1compat run` and (b) after
`tf1compat migrate --write` runs under plain python, printing the same results
as under TensorFlow 1.15.

The expected results are tests/legacy_scripts/expected/*.out, printed by TF 1.15
(regenerate_expected.py); a live test runs each script under the TF 1.15
reference interpreter and checks they still are. Printed results are compared
number by number (tf1compat.compare.printed_numbers): integers exactly, floats within
each case's rtol/atol. Each run is a fresh process; the parametrized cases
spread over pytest-xdist workers. The synthetic data sets (MNIST idx .gz,
CIFAR-10 binary, CSV, tf.Example records, text) are written once per worker,
never downloaded.
"""

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "legacy_scripts"))
import corpus  # noqa: E402

IDS = [Path(case.script).stem for case in corpus.CASES]


def tf_names(source, *prefixes):
    """Dotted names and imported modules of the code (not its text) starting with a prefix."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom):
            found.append(node.module or "")
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.startswith(prefixes)]


@pytest.fixture(scope="session")
def data(tmp_path_factory):
    return corpus.make_data(tmp_path_factory.mktemp("corpus-data"))


def test_the_corpus_covers_what_the_issue_asks():
    assert len(corpus.CASES) >= 16
    sources = {name: (corpus.HERE / name).read_text() for case in corpus.CASES
               for name in case.files}
    text = "\n".join(sources.values())
    for field in ("log_device_placement", "allow_soft_placement", "allow_growth",
                  "per_process_gpu_memory_fraction", "visible_device_list", '"GPU"', '"CPU"',
                  "virtual_devices", "intra_op_parallelism_threads",
                  "inter_op_parallelism_threads", "global_jit_level"):
        assert field in text, field
    for api in ("tf.layers.dense", "tf.app.flags", "tf.InteractiveSession", "add_n",
                "string_input_producer", "TextLineReader", "start_queue_runners",
                "compute_gradients", '"/gpu:%d"'):
        assert api in text, api
    # the real-world issue: contrib, the MNIST reader, flags, summaries, devices, queues
    for api in ("tf.contrib.layers.flatten", "tf.contrib.layers.fully_connected",
                "tf.contrib.rnn.BasicLSTMCell", "tf.contrib.rnn.MultiRNNCell",
                "tf.contrib.rnn.DropoutWrapper", "tf.contrib.seq2seq.sequence_loss",
                "slim.prefetch_queue.prefetch_queue", "tf.contrib.framework.",
                "tf.contrib.cudnn_rnn.CudnnCompatible", "slim.arg_scope",
                "from tensorflow.examples.tutorials.mnist import input_data",
                "read_data_sets(", "next_batch(", "validation_size", "one_hot=True",
                "tf.app.flags", "tf.flags", "tf.app.run(main=main, argv=", "tf.logging",
                "tf.summary.scalar", "tf.summary.FileWriter", "tf.train.Supervisor",
                "tf.train.MonitoredTrainingSession", "SessionRunHook",
                "tf.train.SyncReplicasOptimizer", "tf.train.Saver", "export_meta_graph",
                "import_meta_graph", "replica_device_setter", "node_def", "device_filters",
                "allocator_type", 'visible_device_list = "0,1"', "string_input_producer",
                "slice_input_producer", "range_input_producer", "FixedLengthRecordReader",
                "WholeFileReader", "TextLineReader(skip_header_lines=1)", "tf.train.batch(",
                "tf.train.shuffle_batch(", "num_threads=4", "decode_raw",
                "parse_single_example", "tf.train.Coordinator", "tf.layers.conv2d"):
        assert api in text, api
    queue_scripts = [source for source in sources.values() if "start_queue_runners" in source]
    assert any("coord=coord" not in source for source in queue_scripts)  # without a Coordinator
    for case in corpus.CASES:
        assert (corpus.HERE / "expected" / (Path(case.script).stem + ".out")).exists(), case


@pytest.mark.parametrize("case", corpus.CASES, ids=IDS)
def test_runs_under_tf1compat_run(case, tmp_path, data):
    result = corpus.run_with_tf1compat(case, corpus.HERE, tmp_path / "scratch", data)
    assert result.returncode == 0, result.stderr[-3000:]
    comparison = corpus.compare(case, result.stdout)
    assert comparison.ok, comparison.report()
    assert "tf1compat run: " + case.script in result.stderr  # the report


@pytest.mark.tf1_reference
@pytest.mark.tf1_only
@pytest.mark.parametrize("case", corpus.CASES, ids=IDS)
def test_expected_output_is_what_tf1_prints(case, tmp_path, data, tf1_python):
    corpus.copy_case(case, tmp_path / "script")
    result = corpus.run_with_reference(case, tf1_python, tmp_path / "script",
                                       tmp_path / "scratch", data)
    assert result.returncode == 0, result.stderr[-3000:]
    comparison = corpus.compare(case, result.stdout)
    assert comparison.ok, comparison.report()


# Session-scoped: xdist interleaves other modules' tests with these on their worker, and a
# module-scoped fixture would migrate the corpus again after each interruption.
@pytest.fixture(scope="session")
def migrated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("migrated")
    for case in corpus.CASES:
        corpus.copy_case(case, folder)
    result = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", str(folder),
                             "--write", "--json"], check=True, capture_output=True, text=True,
                            env=corpus.environment())
    (folder.parent / "migrate-report.json").write_text(result.stdout)
    return folder


# One worker migrates the corpus (about 30 s of LibCST) and runs these; with --dist loadgroup
# the other workers do not migrate it again.
@pytest.mark.xdist_group("migrated-corpus")
@pytest.mark.same_ops_as_run
@pytest.mark.parametrize("case", corpus.CASES, ids=IDS)
def test_runs_under_plain_python_after_migrate(case, migrated, tmp_path, data):
    source = (migrated / case.script).read_text()
    assert "tf.ConfigProto" not in source and "tf.Session(" not in source
    assert not tf_names(source, "tf.contrib", "tensorflow.contrib", "tensorflow.examples")
    result = corpus.run_plain(case, migrated, tmp_path / "scratch", data)
    assert result.returncode == 0, result.stderr[-3000:]
    comparison = corpus.compare(case, result.stdout)
    assert comparison.ok, comparison.report()


@pytest.mark.xdist_group("migrated-corpus")
@pytest.mark.same_ops_as_run
def test_the_csv_queue_chains_are_converted_or_reported_with_their_reason(migrated):
    report = json.loads((migrated.parent / "migrate-report.json").read_text())
    chains = {Path(entry["path"]).name: [f for f in entry["findings"] if f["rule"] == "queue-chain"]
              for entry in report["files"]}
    # one ordered file, train.batch on one thread: converted (and run above, same results)
    [converted] = chains["queue_csv_reader.py"]
    assert converted["kind"] == "changed" and converted["line"] == 14
    source = (migrated / "queue_csv_reader.py").read_text()
    assert "from tf1compat.input_pipeline import input_pipeline" in source
    assert ("_rows = input_pipeline([path], [[0], [0.0], [0]], header_lines=1, num_epochs=1, "
            "shuffle=False, batch_size=4)\nxs, ys, labels = _rows.tensors\n") in source
    assert "threads = _rows.start_queue_runners(sess=sess, coord=coord)" in source
    assert not tf_names(source, "tf.compat.v1.train", "tf.compat.v1.TextLineReader",
                        "tf.io.decode_csv")
    # shuffled files (that alone is shuffle_files=True) into shuffle_batch on 4 threads:
    # left as is, with the reason and its line
    threads = chains["csv_queue_threads.py"]
    assert [(f["kind"], f["line"]) for f in threads] == [("not converted", 18)]
    assert "shuffle_batch mixes the rows through a RandomShuffleQueue with 4 threads" in \
        threads[0]["message"]
    assert "string_input_producer" in (migrated / "csv_queue_threads.py").read_text()


MODERN = [case for case in corpus.CASES if case.script in
          ("config_constructor.py", "config_attributes.py", "two_gpu_towers.py")]


@pytest.mark.parametrize("case", MODERN, ids=[Path(c.script).stem for c in MODERN])
def test_runs_after_migrate_to_modern_configure(case, tmp_path):
    shutil.copy(corpus.HERE / case.script, tmp_path / case.script)
    subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", "--target", "modern",
                    "--write", str(tmp_path / case.script)],
                   check=True, capture_output=True, env=corpus.environment())
    source = (tmp_path / case.script).read_text()
    assert source.count("modern.configure(") == 1 and "ConfigProto(" not in source
    result = corpus.run_plain(case, tmp_path, tmp_path / "scratch")
    assert result.returncode == 0, result.stderr[-3000:]
    comparison = corpus.compare(case, result.stdout)
    assert comparison.ok, comparison.report()


def test_the_docs_show_the_counts_these_tests_hold():
    readme = (corpus.REPO_ROOT / "docs" / "running.md").read_text()
    block = readme.split("<!-- corpus-counts:start -->")[1].split("<!-- corpus-counts:end -->")[0]
    total = len(corpus.CASES)
    assert f"| tf1compat migrate | {total} / {total} |" in block
    assert f"| tf1compat run | {total} / {total} |" in block
    assert "| tf_upgrade_v2 alone | " in block
    assert "python3 tests/legacy_scripts/count_runnable.py" in readme
