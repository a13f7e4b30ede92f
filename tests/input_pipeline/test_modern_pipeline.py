"""What only the tf.data side has: the Dataset itself, engines, make_dataset."""

from __future__ import annotations

import re

import numpy as np
import pytest
import tensorflow as tf

from modern.input_pipeline import input_pipeline, make_dataset
from tf1compat.shared.errors import OptionError

from .suite import INTS, csv_text, int_rows


def test_dataset_of_column_batches(tmp_path):
    (tmp_path / "a.csv").write_text("1,2.5,x\n3,4.5,y\n5,6.5,z\n")
    pipe = input_pipeline(str(tmp_path / "a.csv"), [[0], [0.0], [""]], batch_size=2,
                          column_names=["i", "f", "s"])
    spec = pipe.dataset.element_spec
    assert spec == {"i": tf.TensorSpec([None], tf.int32), "f": tf.TensorSpec([None], tf.float32),
                    "s": tf.TensorSpec([None], tf.string)}
    first = [b["i"].numpy().tolist() for b in pipe.dataset]
    again = [b["i"].numpy().tolist() for b in pipe.dataset]   # a Dataset can be iterated again
    assert first == again == [[1, 3], [5]]
    features = pipe.dataset.map(lambda b: (tf.stack([tf.cast(b["i"], tf.float32), b["f"]], 1), b["s"]))
    x, y = next(iter(features))
    assert x.shape == (2, 2) and y.numpy().tolist() == [b"x", b"y"]


def test_raw_dataset_error_names_file_and_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(csv_text(int_rows(3)) + "1,2\n")
    pipe = input_pipeline(str(path), INTS, engine="tf")
    with pytest.raises(tf.errors.OpError, match=re.escape(f"{path}:4: Expect 3 fields but have 2")):
        list(pipe.dataset)


def test_seeded_shuffle_is_reproducible(tmp_path):
    (tmp_path / "a.csv").write_text(csv_text(int_rows(200)))
    orders = [[r for b in input_pipeline(str(tmp_path / "a.csv"), INTS, shuffle=True, seed=s,
                                         shuffle_buffer=64, chunk_bytes=256) for r in b[0].tolist()]
              for s in (1, 1, 2)]
    assert orders[0] == orders[1] != orders[2]
    assert sorted(orders[2]) == list(range(200))


def test_options_of_the_modern_side(tmp_path):
    (tmp_path / "a.csv").write_text("1,2,3\n")
    for options in ({"engine": "fast"}, {"num_parallel_reads": 0}, {"chunk_bytes": -1}):
        with pytest.raises(OptionError, match=next(iter(options))):
            input_pipeline(str(tmp_path / "a.csv"), INTS, **options)


# -- arrow agrees with decode_csv, or stands aside ------------------------------------
TOKENS = {
    "int32": ["0", "-0", "+5", " 5", "5 ", "\t5", "007", "0x10", "0X1f", "1e3", "1.0", "2147483647",
              "2147483648", "-2147483648", "-", "", " ", "5x", "\v5", "NA", "1_000", "٣"],
    "int64": ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "0x7f", "+0"],
    "float32": ["1.5", ".5", "5.", "+1.5", "1e5", "1E+05", "1e", "inf", "-inf", "+inf", "Infinity",
                "INF", "nan", "-nan", "NaN", "1.5x", "0x1p3", " 1.5", "1.5 ", "1e400", "1e-50",
                "3.4028236e38", "1.17549435e-38", "0.1234567890123456789012345678901", "", "NA"],
    "float64": ["0.1", "1e-320", "2.2250738585072014e-308", "1.7976931348623157e308", "1e309",
                "-0.0", "4.9e-324", "0x1p-2", "1,5"],
    "string": ["a", "", " ", "NA", "é", "\\N", "x\ty", "NULL", "\"quoted\"", "a\"b", "\"open"],
}


def _tokens(dtype: str) -> list:
    values = TOKENS[dtype]
    if dtype.startswith("float"):
        rng = np.random.default_rng(0)
        scale = 10.0 ** rng.integers(-30, 30, 300)
        values = values + [repr(float(v)) for v in rng.standard_normal(300) * scale]
    return values


@pytest.mark.parametrize("dtype", sorted(TOKENS))
def test_arrow_decoder_accepts_only_what_decode_csv_reads_the_same(dtype):
    import pyarrow as pa

    from modern.input_pipeline._arrow import ArrowDecoder, NotFast
    from tf1compat.shared.csv_spec import CsvSpec
    default = ["?"] if dtype == "string" else tf.constant([7], tf.as_dtype(dtype))
    spec = CsvSpec.build("unused", [[0], default], na_value="NA")
    decoder = ArrowDecoder(spec)
    accepted = 0
    for token in _tokens(dtype):
        line = f"1,{token}\n".encode("utf-8")
        try:
            ours = decoder(line)[1]
        except (NotFast, pa.ArrowInvalid):
            continue
        accepted += 1
        try:
            reference = tf.io.decode_csv([line[:-1]], spec.record_defaults(), na_value="NA")[1].numpy()
        except tf.errors.InvalidArgumentError:
            pytest.fail(f"pyarrow read {token!r} as {ours!r}; decode_csv rejects it")
        assert ours.dtype == reference.dtype, token
        assert ours.tobytes() == reference.tobytes() or ours.tolist() == reference.tolist(), token
    assert accepted >= len(TOKENS[dtype]) // 3   # the fast path is taken where it can be


@pytest.mark.parametrize("dtype", ["float32", "int32", "string"])
def test_arrow_and_tf_engines_give_the_same_rows_and_bad_rows(tmp_path, dtype):
    values = _tokens(dtype)
    path = tmp_path / "t.csv"
    path.write_bytes("".join(f"{i},{v}\n" for i, v in enumerate(values)).encode("utf-8"))
    default = ["?"] if dtype == "string" else tf.constant([7], tf.as_dtype(dtype))
    results = {}
    for engine in ("arrow", "tf"):
        pipe = input_pipeline(str(path), [[0], default], na_value="NA", on_bad_row="skip",
                              engine=engine, chunk_bytes=200)
        batches = list(pipe)
        ids = np.concatenate([b[0] for b in batches])
        column = np.concatenate([b[1] for b in batches])
        results[engine] = (ids.tolist(), column.tobytes() if dtype != "string" else column.tolist(),
                           sorted((r.line, r.reason) for r in pipe.bad_rows.examples))
    assert results["arrow"] == results["tf"]
    assert results["tf"][2]   # the tokens include bad ones


# -- make_dataset ---------------------------------------------------------------------
def test_make_dataset_shuffles_examples_once_per_epoch():
    x, y = np.arange(20), np.arange(20) * 10
    batches = list(make_dataset(x, y, epochs=3, batch_size=8, shuffle=True, seed=5))
    xs = np.concatenate([b[0].numpy() for b in batches])
    assert np.array_equal(np.concatenate([b[1].numpy() for b in batches]), xs * 10)
    epochs = [xs[i * 20:(i + 1) * 20] for i in range(3)]
    assert all(sorted(e.tolist()) == list(range(20)) for e in epochs)   # no example twice
    assert not np.array_equal(epochs[0], epochs[1])                       # reshuffled
    assert [len(b[0]) for b in batches] == [8] * 7 + [4]                 # batches span epochs
    again = np.concatenate([b[0].numpy() for b in make_dataset(x, y, 3, 8, True, seed=5)])
    assert np.array_equal(xs, again)


def test_make_dataset_without_shuffle_or_labels():
    data = make_dataset({"a": np.arange(5)}, epochs=1, batch_size=2, shuffle=False,
                        drop_remainder=True)
    assert [b["a"].numpy().tolist() for b in data] == [[0, 1], [2, 3]]
    with pytest.raises(OptionError, match="batch_size"):
        make_dataset(np.arange(3), batch_size=0)


def test_process_exits_with_an_iterator_still_alive(tmp_path):
    # A live iterator at exit used to hang the process: a prefetching tf.data
    # thread in a py_function was ended by the interpreter's shutdown while the
    # iterator's destructor waited for it (modern/_py_guard.py).
    import subprocess
    import sys
    from pathlib import Path
    rows = np.arange(600_000, dtype=np.int64).reshape(-1, 3)
    np.savetxt(tmp_path / "big.csv", rows, fmt="%d", delimiter=",")
    code = ("import sys\n"
            "from modern.input_pipeline import input_pipeline\n"
            f"batches = iter(input_pipeline({str(tmp_path / 'big.csv')!r}, [[0]] * 3,\n"
            "                               batch_size=10, chunk_bytes=1 << 20).dataset)\n"
            "print(next(batches)[0].numpy().tolist())\n")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=90,
                            env={"PYTHONPATH": str(root), "TF_CPP_MIN_LOG_LEVEL": "2",
                                 "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == str(list(range(0, 30, 3)))


@pytest.mark.parametrize("engine", ["arrow", "tf"])
def test_file_gone_after_construction_is_our_error(tmp_path, engine):
    from tf1compat.shared.errors import InputPipelineError
    path = tmp_path / "gone.csv"
    path.write_text("1,2,3\n")
    pipe = input_pipeline(str(path), INTS, engine=engine)
    _ = pipe.dataset
    path.unlink()
    with pytest.raises(InputPipelineError, match=r"reading CSV failed: .*gone\.csv"):
        list(pipe)
