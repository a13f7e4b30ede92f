"""The behaviour every CSV pipeline must have: one suite, every implementation.

`PipelineSuite` uses two fixtures: `side` (an implementation, see sides.py)
and `csv_root` (where files live, see roots.py). Subclass it and override
either fixture to run it elsewhere, as fsspec's abstract test suites do.
"""

from __future__ import annotations

import math
import re

import pytest

from tf1compat.shared.errors import BadRowError, InputFileError, OptionError

from .sides import batch_sizes, rows_of

INTS = [[0], [0], [0]]


def int_rows(count: int, start: int = 0) -> list:
    return [(i, -i * 7, i * i % 1009) for i in range(start, start + count)]


def csv_text(rows: list, newline: str = "\n", final: bool = True) -> str:
    text = newline.join(",".join(str(v) for v in row) for row in rows)
    return text + (newline if final else "")


class PipelineSuite:
    """Shared tests; needs the `side` and `csv_root` fixtures."""

    # -- reading -------------------------------------------------------------------
    def test_rows_in_order_and_full_batches(self, side, csv_root):
        rows = int_rows(23)
        path = csv_root.write("a.csv", csv_text(rows))
        batches, _ = side.read(path, INTS, batch_size=5)
        assert rows_of(batches) == rows
        assert batch_sizes(batches) == [5, 5, 5, 5, 3]
        assert all(b[0].dtype.name == "int32" for b in batches)

    def test_files_in_order_and_batches_span_files(self, side, csv_root):
        first, second = int_rows(4), int_rows(6, start=100)
        csv_root.write("d/part-1.csv", csv_text(second))
        csv_root.write("d/part-0.csv", csv_text(first))
        batches, _ = side.read(csv_root.url("d/part-*.csv"), INTS, batch_size=3)
        assert rows_of(batches) == first + second
        assert batch_sizes(batches) == [3, 3, 3, 1]
        listed = side.rows([csv_root.url("d/part-1.csv"), csv_root.url("d/part-0.csv")], INTS)
        assert listed == second + first

    def test_header_names_types_and_selected_columns(self, side, csv_root):
        text = "id|score|name|skip\n1|0.5|ann|x\n2|-1.25e3|bob|y\n"
        path = csv_root.write("t.csv", text)
        batches, _ = side.read(path, ["int64", [0.0], [""]], header_lines=1, field_delim="|",
                               select_cols=[0, 1, 2], column_names=["id", "score", "name"])
        (batch,) = batches
        assert list(batch) == ["id", "score", "name"]
        assert batch["id"].dtype.name == "int64" and batch["score"].dtype.name == "float32"
        assert batch["id"].tolist() == [1, 2]
        assert batch["score"].tolist() == [0.5, -1250.0]
        assert batch["name"].tolist() == [b"ann", b"bob"]

    def test_defaults_and_na_value(self, side, csv_root):
        path = csv_root.write("na.csv", "1,,x\nNA,2.5,\n")
        rows = side.rows(path, [[-1], [9.0], ["dflt"]], na_value="NA")
        assert rows == [(1, 9.0, b"x"), (-1, 2.5, b"dflt")]

    def test_float64_values_exact(self, side, csv_root):
        values = [0.1, 1e-300, 123456789.123456789, -2.5e100, 5e-324]
        path = csv_root.write("f.csv", "".join(f"{v!r},{v!r}\n" for v in values))
        rows = side.rows(path, ["float64", "float32"])
        assert [r[0] for r in rows] == values
        assert all(math.isclose(r[1], v, rel_tol=1e-6) or abs(v) < 1e-38 or abs(v) > 3e38
                   for r, v in zip(rows, values))

    def test_epochs_and_drop_remainder(self, side, csv_root):
        rows = int_rows(5)
        path = csv_root.write("e.csv", csv_text(rows))
        batches, _ = side.read(path, INTS, num_epochs=2, batch_size=4, drop_remainder=True)
        assert rows_of(batches) == (rows + rows)[:8]
        assert batch_sizes(batches) == [4, 4]

    def test_shuffle_keeps_every_row(self, side, csv_root):
        rows = int_rows(300)
        paths = [csv_root.write(f"s{i}.csv", csv_text(rows[i * 100:(i + 1) * 100])) for i in range(3)]
        got = side.rows(paths, INTS, shuffle=True, seed=7, shuffle_buffer=50, batch_size=32)
        assert sorted(got) == rows
        assert got != rows

    def test_shuffle_files_reorders_files_each_epoch_and_keeps_their_rows_in_order(
            self, side, csv_root):
        files = [int_rows(5, start=100 * i) for i in range(4)]
        paths = [csv_root.write(f"f{i}.csv", csv_text(rows)) for i, rows in enumerate(files)]
        got = side.rows(paths, INTS, shuffle_files=True, seed=3, num_epochs=6, batch_size=7)
        assert len(got) == 6 * 20
        orders = []
        for epoch in range(6):
            rows = got[epoch * 20:(epoch + 1) * 20]
            blocks = [rows[i:i + 5] for i in range(0, 20, 5)]
            order = [files.index(block) if block in files else None for block in blocks]
            assert sorted(order) == [0, 1, 2, 3], (epoch, rows)  # whole files, rows in order
            orders.append(tuple(order))
        assert len(set(orders)) > 1  # a new order each epoch
        again = side.rows(paths, INTS, shuffle_files=True, seed=3, num_epochs=6, batch_size=7)
        assert again == got  # seeded

    def test_shuffle_files_must_be_a_bool(self, side, csv_root):
        path = csv_root.write("b.csv", csv_text(int_rows(2)))
        with pytest.raises(OptionError, match="shuffle_files=1"):
            side.rows(path, INTS, shuffle_files=1)

    def test_file_url(self, side, csv_root):
        path = csv_root.write("u.csv", csv_text(int_rows(3)))
        if "://" in path:
            pytest.skip("the root is not local")
        assert side.rows("file://" + path, INTS) == int_rows(3)

    # -- inputs that are not bad (read correctly) ----------------------------------
    @pytest.mark.parametrize("newline", ["\n", "\r\n"])
    @pytest.mark.parametrize("final", [True, False])
    def test_line_endings(self, side, csv_root, newline, final):
        rows = int_rows(7)
        path = csv_root.write("n.csv", csv_text(rows, newline, final))
        assert side.rows(path, INTS, batch_size=3) == rows

    def test_string_column_with_crlf(self, side, csv_root):
        path = csv_root.write("c.csv", "1,ab\r\n2,cd\r\n3,ef\r")
        assert side.rows(path, [[0], [""]]) == [(1, b"ab"), (2, b"cd"), (3, b"ef")]

    def test_lone_final_carriage_return_is_no_line(self, side, csv_root):
        # TextLineReader strips the CR and reads no line after the last newline.
        path = csv_root.write("cr.csv", "1,2,3\r\n4,5,6\n\r")
        batches, pipe = side.read(path, INTS, on_bad_row="skip")
        assert rows_of(batches) == [(1, 2, 3), (4, 5, 6)]
        assert pipe.bad_rows.total == 0

    @pytest.mark.parametrize("header_lines", [0, 1])
    def test_utf8_bom(self, side, csv_root, header_lines):
        header = "a,b,c\n" if header_lines else ""
        path = csv_root.write("bom.csv", b"\xef\xbb\xbf" + (header + csv_text(int_rows(4))).encode())
        second = csv_root.write("plain.csv", header + csv_text(int_rows(2, 10)))
        assert side.rows([path, second], INTS, header_lines=header_lines) == \
            int_rows(4) + int_rows(2, 10)

    def test_quoted_fields_rfc4180(self, side, csv_root):
        path = csv_root.write("q.csv", '1,"a,b"\n2,"say ""hi"""\n3,""\n4,plain\n')
        rows = side.rows(path, [[0], ["?"]])
        assert rows == [(1, b"a,b"), (2, b'say "hi"'), (3, b"?"), (4, b"plain")]

    def test_quotes_as_plain_characters(self, side, csv_root):
        path = csv_root.write("q.csv", '1,"ab"\n')
        assert side.rows(path, [[0], [""]], use_quote_delim=False) == [(1, b'"ab"')]

    def test_header_only_file_gives_no_rows(self, side, csv_root):
        path = csv_root.write("h.csv", "a,b,c\n")
        other = csv_root.write("o.csv", "a,b,c\n" + csv_text(int_rows(2)))
        assert side.rows([path, other], INTS, header_lines=1) == int_rows(2)

    # -- bad rows ------------------------------------------------------------------
    BAD_CASES = {
        "too few columns": "5,6\n",
        "too many columns": "5,6,7,8\n",
        "not a number": "5,x,7\n",
        "empty line": "\n",
        "int overflow": "5,6,99999999999\n",
        "unterminated quote": '5,"6,7\n',
        "quote inside field": '5,6"6,7\n',
        "required field missing": "5,6,\n",
    }

    @pytest.mark.parametrize("case", sorted(BAD_CASES))
    def test_bad_row_raises_naming_file_and_line(self, side, csv_root, case):
        good = csv_text(int_rows(6))
        path = csv_root.write("bad.csv", "h1,h2,h3\n" + good + self.BAD_CASES[case] + good)
        with pytest.raises(BadRowError) as caught:
            side.rows(path, [[0], [0], "int32"], header_lines=1, batch_size=4)
        error = caught.value
        assert (error.path, error.line) == (path, 8)
        assert f"{path}:8" in str(error) and "on_bad_row='skip'" in str(error)
        assert error.reason

    @pytest.mark.parametrize("case", sorted(BAD_CASES))
    def test_bad_row_skipped_and_counted(self, side, csv_root, case):
        good = int_rows(6)
        text = csv_text(good)
        path = csv_root.write("bad.csv", text + self.BAD_CASES[case] + text)
        other = csv_root.write("ok.csv", text)
        batches, pipe = side.read([path, other], [[0], [0], "int32"], on_bad_row="skip",
                                  batch_size=4)
        assert rows_of(batches) == good * 3
        assert pipe.bad_rows.counts == {path: 1}
        (bad,) = pipe.bad_rows.examples
        assert (bad.path, bad.line) == (path, 7)

    def test_newline_inside_quotes_is_two_bad_lines(self, side, csv_root):
        # Line readers (TextLineReader, TextLineDataset) split at every newline, so
        # an RFC 4180 quoted field that holds one cannot be read: both halves are bad.
        path = csv_root.write("nl.csv", '1,"a\nb",2\n3,c,4\n')
        batches, pipe = side.read(path, [[0], [""], [0]], on_bad_row="skip")
        assert rows_of(batches) == [(3, b"c", 4)]
        assert sorted(b.line for b in pipe.bad_rows.examples) == [1, 2]

    def test_many_bad_rows_counted_per_file(self, side, csv_root):
        lines = [f"{i},{i},{'x' if i % 5 == 0 else i}" for i in range(50)]
        first = csv_root.write("b1.csv", "\n".join(lines) + "\n")
        second = csv_root.write("b2.csv", "\n".join(lines[:20]) + "\n")
        rows = side.rows([first, second], INTS, on_bad_row="skip", batch_size=8)
        kept = [(i, i, i) for i in range(50) if i % 5]
        assert rows == kept + kept[:16]
        _, pipe = side.read([first, second], INTS, on_bad_row="skip")
        assert pipe.bad_rows.counts == {first: 10, second: 4}
        assert sorted(b.line for b in pipe.bad_rows.examples if b.path == first)[:3] == [1, 6, 11]

    # -- bad inputs ------------------------------------------------------------------
    def test_missing_file(self, side, csv_root):
        path = csv_root.url("nope.csv")
        with pytest.raises(InputFileError, match=re.escape(path)) as caught:
            side.rows(path, INTS)
        assert "no such file" in str(caught.value)

    def test_empty_file(self, side, csv_root):
        path = csv_root.write("empty.csv", b"")
        with pytest.raises(InputFileError, match=re.escape(path)) as caught:
            side.rows([csv_root.write("ok.csv", "1,2,3\n"), path], INTS)
        assert "empty" in str(caught.value)

    def test_directory(self, side, csv_root):
        path = csv_root.mkdir("adir")
        with pytest.raises(InputFileError, match=re.escape(path)) as caught:
            side.rows(path, INTS)
        assert "directory" in str(caught.value)

    def test_glob_matching_nothing(self, side, csv_root):
        pattern = csv_root.url("none-*.csv")
        with pytest.raises(InputFileError, match=re.escape(pattern)) as caught:
            side.rows(pattern, INTS)
        assert "matched no files" in str(caught.value)

    @pytest.mark.parametrize("options", [{"batch_size": 0}, {"read": "lines"},
                                         {"on_bad_row": "ignore"}, {"field_delim": ",,"},
                                         {"select_cols": [2, 1, 0]}, {"num_epochs": 0}])
    def test_bad_options(self, side, csv_root, options):
        path = csv_root.write("a.csv", "1,2,3\n")
        name = next(iter(options))
        with pytest.raises(OptionError, match=name):
            side.rows(path, INTS, **options)

    def test_bad_record_defaults(self, side, csv_root):
        path = csv_root.write("a.csv", "1,2,3\n")
        with pytest.raises(OptionError, match=r"record_defaults\[1\]"):
            side.rows(path, [[0], [], [0]])
