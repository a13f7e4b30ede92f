"""The same files and options give the same batches, rows and bad rows on every side."""

from __future__ import annotations

import numpy as np
import pytest

from .sides import SIDES, batch_sizes, rows_of


def _bad(i: int) -> bool:
    return (i % 11 == 7 and i % 3 == 0) or (i % 11 == 9 and i % 4 == 0)


def _mixed_files(root, rng) -> list:
    """Three files with every feature at once: header, BOM, CRLF, quotes, gaps, bad rows."""
    def line(i: int) -> str:
        kind = i % 11
        name = ['plain', '"with, comma"', '"say ""hi"""', '', 'é'][i % 5]
        score = "" if kind == 3 else repr(float(rng.standard_normal() * 10.0 ** int(rng.integers(-5, 5))))
        count = str(int(rng.integers(-2**40, 2**40)))
        if kind == 7 and i % 3 == 0:
            count = "12x"                       # bad: not a number
        if kind == 9 and i % 4 == 0:
            return f"{i},{score}"               # bad: too few columns
        return f"{i},{score},{name},{count}"
    lines = [line(i) for i in range(700)]
    header = "id,score,name,count"
    return [
        root.write("m0.csv", ("\ufeff" + header + "\n" + "\n".join(lines[:300]) + "\n").encode()),
        root.write("m1.csv", (header + "\r\n" + "\r\n".join(lines[300:450]))),   # no final newline
        root.write("m2.csv", header + "\n" + "\n".join(lines[450:]) + "\n\n" + lines[0] + "\n"),
    ]


@pytest.mark.parametrize("batch_size", [1, 64, 1000])
def test_every_side_gives_the_same_batches_and_bad_rows(csv_root, batch_size):
    files = _mixed_files(csv_root, np.random.default_rng(batch_size))
    options = dict(record_defaults=["int32", [-1.0], ["none"], "int64"], header_lines=1,
                   column_names=["id", "score", "name", "count"], on_bad_row="skip",
                   batch_size=batch_size)
    results = {}
    for name, side in sorted(SIDES.items()):
        if name == "tf1-record" and batch_size == 1:
            continue   # a row per session run: slow, and covered with the other sizes
        batches, pipe = side.read(files, **options)
        results[name] = (batch_sizes(batches), rows_of(batches),
                         sorted((b.path, b.line, b.reason, b.text) for b in pipe.bad_rows.examples),
                         pipe.bad_rows.counts)
    reference = results.pop("tf1-batch")
    sizes, rows, bad, counts = reference
    ids = list(range(700)) + [0]          # m2 ends with an empty line and line 0 again
    assert [r[0] for r in rows] == [i for i in ids if not _bad(i)]
    where = [(files[0], i + 2) for i in range(300)] + [(files[1], i - 298) for i in range(300, 450)] \
        + [(files[2], i - 448) for i in range(450, 700)]
    expected = sorted([where[i] for i in range(700) if _bad(i)] + [(files[2], 252)])
    assert [(b[0], b[1]) for b in bad] == expected
    assert {b[2] for b in bad} == {"Expect 4 fields but have 2", "Expect 4 fields but have 0",
                                   "Field 3 is not a valid int64: 12x"}
    assert counts == {f: sum(1 for b in expected if b[0] == f) for f in files}
    assert sizes == [batch_size] * (len(rows) // batch_size) + (
        [len(rows) % batch_size] if len(rows) % batch_size else [])
    for name, result in results.items():
        assert result[0] == sizes, name
        assert result[1] == rows, name
        assert result[2] == bad, name
        assert result[3] == counts, name
