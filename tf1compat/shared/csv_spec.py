"""The options of a CSV input pipeline, checked once and shared by both sides.

`CsvSpec.build(...)` takes the keyword arguments that
`tf1compat.input_pipeline.input_pipeline` and `modern.input_pipeline.input_pipeline`
accept in common and rejects a bad value with `OptionError`, before any file
is opened or any TensorFlow op is built.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Optional, Sequence

from tf1compat.shared.errors import OptionError

DTYPES = ("int32", "int64", "float32", "float64", "string")
_DTYPE_ALIASES = {"str": "string", "bytes": "string", "object": "string", "int": "int32",
                  "float": "float32", "double": "float64"}
READ_MODES = ("batch", "record")
BAD_ROW_MODES = ("raise", "skip")


@dataclasses.dataclass(frozen=True)
class Column:
    """One decoded column: its dtype name and its default (None: required)."""

    dtype: str
    default: Any = None

    @property
    def required(self) -> bool:
        return self.default is None

    @property
    def numpy_dtype(self) -> str:
        return "object" if self.dtype == "string" else self.dtype


def _dtype_name(value: Any) -> Optional[str]:
    """The dtype name that `value` stands for, or None if it is not a dtype."""
    for python_type in (int, float, str, bytes):
        if value is python_type:
            return _DTYPE_ALIASES[python_type.__name__]
    if isinstance(value, str):
        name = _DTYPE_ALIASES.get(value, value)
        return name if name in DTYPES else None
    if type(value).__module__.startswith("tensorflow") and hasattr(value, "as_numpy_dtype"):
        return _DTYPE_ALIASES.get(value.name, value.name)  # a tf.DType
    import numpy as np
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        kind = np.dtype(value)
        return "string" if kind.kind in "SUO" else _DTYPE_ALIASES.get(kind.name, kind.name)
    return None


def _column(index: int, entry: Any) -> Column:
    """Reads one record_defaults entry: a dtype, a default, [default] or []."""
    accepted = ("a dtype (tf.int32, 'float32', int, float, str), a default value "
                "(0, 0.0, '') or a one-element list of it ([0])")
    option = f"record_defaults[{index}]"
    name = _dtype_name(entry)
    if name is not None:
        if name not in DTYPES:
            raise OptionError(option, entry, "one of " + ", ".join(DTYPES))
        return Column(name)
    if hasattr(entry, "numpy") and hasattr(entry, "dtype"):  # an eager tensor
        dtype = _dtype_name(entry.dtype)
        values = list(entry.numpy().reshape(-1))
        if dtype not in DTYPES or len(values) > 1:
            raise OptionError(option, entry, accepted)
        return Column(dtype, _coerce(option, dtype, values[0]) if values else None)
    if isinstance(entry, (list, tuple)):
        if len(entry) != 1:
            raise OptionError(option, entry, accepted,
                              "an empty list has no dtype: give the dtype for a required column")
        entry = entry[0]
    if isinstance(entry, bool) or entry is None:
        raise OptionError(option, entry, accepted)
    if isinstance(entry, (bytes, str)):
        return Column("string", _coerce(option, "string", entry))
    if hasattr(entry, "dtype") and hasattr(entry, "item"):  # a numpy scalar
        dtype = _dtype_name(entry.dtype)
        if dtype in DTYPES:
            return Column(dtype, _coerce(option, dtype, entry.item()))
    if isinstance(entry, int):
        return Column("int32", _coerce(option, "int32", entry))
    if isinstance(entry, float):
        return Column("float32", entry)
    raise OptionError(option, entry, accepted)


def _coerce(option: str, dtype: str, value: Any) -> Any:
    if dtype == "string":
        if isinstance(value, str):
            return value.encode("utf-8")
        if isinstance(value, bytes):
            return value
        raise OptionError(option, value, "a str or bytes default for a string column")
    if dtype.startswith("int"):
        if isinstance(value, float) and not value.is_integer():
            raise OptionError(option, value, f"an integer default for a {dtype} column")
        value = int(value)
        bits = 31 if dtype == "int32" else 63
        if not -(2 ** bits) <= value < 2 ** bits:
            raise OptionError(option, value, f"a default in the {dtype} range")
        return value
    return float(value)


def _positive(option: str, value: Any, minimum: int = 1, allow_none: bool = False) -> Any:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        accepted = f"an int >= {minimum}" + (" or None" if allow_none else "")
        raise OptionError(option, value, accepted)
    return value


def _choice(option: str, value: Any, choices: Sequence[str]) -> str:
    if value not in choices:
        raise OptionError(option, value, " or ".join(repr(c) for c in choices))
    return value


def _patterns(files: Any) -> tuple[str, ...]:
    if isinstance(files, (str, bytes, os.PathLike)):
        files = [files]
    try:
        items = list(files)
    except TypeError:
        raise OptionError("files", files, "a path, URL or glob, or a list of them") from None
    out = []
    for item in items:
        if isinstance(item, bytes):
            item = item.decode("utf-8")
        if isinstance(item, os.PathLike):
            item = os.fspath(item)
        if not isinstance(item, str) or not item:
            raise OptionError("files", files, "non-empty str or os.PathLike paths, URLs or globs")
        out.append(item)
    if not out:
        raise OptionError("files", files, "at least one path, URL or glob")
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class CsvSpec:
    """Everything a CSV pipeline needs to know besides the files' contents.

    Attributes mirror the keyword arguments of `input_pipeline(...)` on both
    sides; `columns` is `record_defaults` read into one `Column` per output.
    """

    patterns: tuple[str, ...]
    columns: tuple[Column, ...]
    column_names: Optional[tuple[str, ...]] = None
    field_delim: str = ","
    header_lines: int = 0
    select_cols: Optional[tuple[int, ...]] = None
    na_value: str = ""
    use_quote_delim: bool = True
    num_epochs: Optional[int] = 1
    shuffle: bool = False
    shuffle_files: bool = False
    seed: Optional[int] = None
    shuffle_buffer: int = 10_000
    batch_size: int = 1024
    drop_remainder: bool = False
    read: str = "batch"
    on_bad_row: str = "raise"

    @classmethod
    def build(cls, files: Any, record_defaults: Any, *, column_names: Any = None,
              field_delim: str = ",", header_lines: int = 0, select_cols: Any = None,
              na_value: str = "", use_quote_delim: bool = True, num_epochs: Optional[int] = 1,
              shuffle: bool = False, shuffle_files: bool = False, seed: Optional[int] = None,
              shuffle_buffer: int = 10_000, batch_size: int = 1024,
              drop_remainder: bool = False, read: str = "batch",
              on_bad_row: str = "raise") -> "CsvSpec":
        """Checks every option and returns the frozen spec.

        Args: see `tf1compat.input_pipeline.input_pipeline`.

        Returns:
          A `CsvSpec`.

        Raises:
          OptionError: an option has a value that is not accepted; the message
            names the option, echoes the value and says what is accepted.
        """
        if record_defaults is None or isinstance(record_defaults, (str, bytes)):
            raise OptionError("record_defaults", record_defaults,
                              "a list with one dtype or default per column, e.g. [[0], [0.0], str]")
        columns = tuple(_column(i, e) for i, e in enumerate(record_defaults))
        if not columns:
            raise OptionError("record_defaults", record_defaults, "at least one column")
        if column_names is not None:
            column_names = tuple(column_names)
            if (len(column_names) != len(columns) or len(set(column_names)) != len(column_names)
                    or not all(isinstance(n, str) and n for n in column_names)):
                raise OptionError("column_names", column_names,
                                  f"{len(columns)} distinct non-empty names, one per column")
        if not isinstance(field_delim, str) or len(field_delim.encode("utf-8")) != 1 or \
                field_delim in '\n\r"':
            raise OptionError("field_delim", field_delim, "one ASCII character, not a quote or newline")
        if select_cols is not None:
            select_cols = tuple(select_cols)
            if (len(select_cols) != len(columns)
                    or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in select_cols)
                    or any(b <= a for a, b in zip(select_cols, select_cols[1:]))):
                raise OptionError("select_cols", select_cols,
                                  f"{len(columns)} increasing column indices >= 0, one per column")
        if not isinstance(na_value, str):
            raise OptionError("na_value", na_value, "a str ('' means: empty fields are missing)")
        if not isinstance(shuffle_files, bool):
            raise OptionError("shuffle_files", shuffle_files, "True or False")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise OptionError("seed", seed, "an int or None")
        return cls(
            patterns=_patterns(files), columns=columns, column_names=column_names,
            field_delim=field_delim, header_lines=_positive("header_lines", header_lines, 0),
            select_cols=select_cols, na_value=na_value, use_quote_delim=bool(use_quote_delim),
            num_epochs=_positive("num_epochs", num_epochs, 1, allow_none=True),
            shuffle=bool(shuffle), shuffle_files=shuffle_files, seed=seed,
            shuffle_buffer=_positive("shuffle_buffer", shuffle_buffer, 1),
            batch_size=_positive("batch_size", batch_size, 1),
            drop_remainder=bool(drop_remainder), read=_choice("read", read, READ_MODES),
            on_bad_row=_choice("on_bad_row", on_bad_row, BAD_ROW_MODES))

    @property
    def files_shuffled(self) -> bool:
        """Whether the file order is shuffled each epoch (by shuffle or shuffle_files)."""
        return self.shuffle or self.shuffle_files

    @property
    def dtypes(self) -> tuple[str, ...]:
        return tuple(c.dtype for c in self.columns)

    def tf_dtypes(self) -> list:
        """The TensorFlow dtypes of the columns, in order."""
        import tensorflow as tf
        return [tf.as_dtype(d) for d in self.dtypes]

    def record_defaults(self) -> list:
        """`record_defaults` for `tf.io.decode_csv`: [default] or an empty tensor (required)."""
        import tensorflow as tf
        out = []
        for column in self.columns:
            dtype = tf.as_dtype(column.dtype)
            if column.required:
                out.append(tf.constant([], dtype=dtype))
            else:
                out.append(tf.constant([column.default], dtype=dtype))
        return out

    def decode_kwargs(self) -> dict:
        """The keyword arguments of `tf.io.decode_csv` besides records and defaults."""
        return {"field_delim": self.field_delim, "use_quote_delim": self.use_quote_delim,
                "na_value": self.na_value,
                "select_cols": list(self.select_cols) if self.select_cols else None}

    def structure(self, columns: Sequence[Any]) -> Any:
        """Columns as the pipeline yields them: a dict by name, else a tuple."""
        if self.column_names is None:
            return tuple(columns)
        return dict(zip(self.column_names, columns))

    def empty_columns(self) -> list:
        """One empty numpy array per column (a batch of no rows)."""
        import numpy as np
        return [np.zeros((0,), dtype=c.numpy_dtype) for c in self.columns]
