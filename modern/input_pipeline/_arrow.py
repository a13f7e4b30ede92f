"""A fast CSV decoder for byte ranges, on pyarrow, that gives up rather than differ.

`tf.io.decode_csv` is the reference: the tf.data and TF1 pipelines must give
the same values and errors. pyarrow's parser is 2-4x faster per core, but
reads some inputs differently (hex integers, bare carriage returns as line
ends, blank lines, quoted fields). `ArrowDecoder` therefore runs only on
ranges where it cannot differ, checked with a few single-byte searches and a
row count, and raises `NotFast` otherwise; pyarrow also raises on anything it
cannot convert. Either way the caller falls back to decode_csv for that range,
which also produces the precise error of a bad row. Values pyarrow does accept
match decode_csv bit for bit (tests/input_pipeline compares both on tricky
tokens and on random floats).
"""

from __future__ import annotations

from typing import Any

from tf1compat.shared.csv_spec import CsvSpec

_ARROW_TYPES = {"int32": "int32", "int64": "int64", "float32": "float32", "float64": "float64",
                "string": "binary"}


class NotFast(Exception):
    """This byte range needs decode_csv (pyarrow could read it differently)."""


def available() -> bool:
    """Whether pyarrow can be imported."""
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


class ArrowDecoder:
    """Decodes a line-aligned byte range into numpy columns, or raises NotFast."""

    def __init__(self, spec: CsvSpec):
        import pyarrow as pa
        import pyarrow.csv as pacsv
        self._pa = pa
        self._csv = pacsv
        self._spec = spec
        self._delim = spec.field_delim.encode("utf-8")
        self._types = [getattr(pa, _ARROW_TYPES[c.dtype])() for c in spec.columns]
        self._has_int = any(c.dtype.startswith("int") for c in spec.columns)
        self._nulls = sorted({"", spec.na_value})
        self._parse = pacsv.ParseOptions(
            delimiter=spec.field_delim, quote_char=False, double_quote=False, escape_char=False,
            newlines_in_values=False, ignore_empty_lines=True)

    def _check(self, data: bytes, final_cr: bool) -> bytes:
        # Single-byte searches only: they run at memchr speed, while a two-byte
        # needle such as b"0x" crawls through digit-heavy data.
        if final_cr or (self._spec.use_quote_delim and b'"' in data):
            raise NotFast("a quote or a final carriage return")
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")
            if b"\r" in data:
                raise NotFast("a carriage return inside a line")
        if self._has_int and (b"x" in data or b"X" in data) and (b"0x" in data or b"0X" in data):
            raise NotFast("0x in an integer file (pyarrow reads hex, decode_csv does not)")
        return data

    def _file_columns(self, data: bytes) -> int:
        end = data.find(b"\n")
        count = (data if end < 0 else data[:end]).count(self._delim) + 1
        select = self._spec.select_cols
        if select is None and count != len(self._spec.columns):
            raise NotFast("column count differs from record_defaults")
        if select is not None and count <= select[-1]:
            raise NotFast("fewer columns than select_cols needs")
        return count

    def __call__(self, data: bytes, final_cr: bool = False) -> list:
        """The decoded columns of `data` (whole lines), as numpy arrays.

        Raises:
          NotFast: the range needs decode_csv.
          pyarrow.ArrowInvalid: pyarrow could not parse or convert it.
        """
        spec = self._spec
        if not data:
            return spec.empty_columns()
        data = self._check(data, final_cr)
        count = self._file_columns(data)
        names = [f"c{i}" for i in range(count)]
        select = spec.select_cols or tuple(range(count))
        chosen = [names[i] for i in select]
        table = self._csv.read_csv(
            self._pa.BufferReader(data),   # zero-copy, and no GIL while pyarrow reads it
            read_options=self._csv.ReadOptions(use_threads=False, column_names=names,
                                               block_size=len(data) + 1),
            parse_options=self._parse,
            convert_options=self._csv.ConvertOptions(
                column_types=dict(zip(chosen, self._types)), include_columns=chosen,
                null_values=self._nulls, strings_can_be_null=True, check_utf8=False))
        lines = data.count(b"\n") + (not data.endswith(b"\n"))
        if table.num_rows != lines:   # pyarrow skipped empty lines; decode_csv rejects them
            raise NotFast("an empty line")
        return [self._column(table.column(i), c) for i, c in enumerate(spec.columns)]

    def _column(self, array: Any, column: Any) -> Any:
        if array.null_count:
            if column.required:
                raise NotFast("a required field is missing")
            import pyarrow.compute as pc
            array = pc.fill_null(array, self._pa.scalar(column.default, array.type))
        values = array.to_numpy()
        if column.dtype == "string":
            values = values.astype(object)
        return values
