"""The CSV input pipeline on tf.data, and `make_dataset` for in-memory arrays.

`input_pipeline(...)` takes the arguments of `tf1compat.input_pipeline.input_pipeline`
(less `session`) and gives the same rows in the same order (without
shuffling), as a `tf.data.Dataset` of batches (`pipeline.dataset`) or as numpy
batches (`for batch in pipeline`):

    rows = input_pipeline("data/*.csv", [[0], [0.0], [""]], batch_size=512)
    model.fit(rows.dataset.map(lambda x, y, label: ((x, y), label)))

Files are cut into line-aligned byte ranges that are read and decoded in
parallel (`interleave`) and yielded in order, then cut into batches
(`rebatch`) and prefetched; see `modern.input_pipeline._dataset`. Importing this module
does not import TensorFlow.
"""

from __future__ import annotations

import os
from typing import Any, Iterator, Optional

from tf1compat.shared.csv_files import InputFile, resolve
from tf1compat.shared.csv_rows import BadRowReport
from tf1compat.shared.csv_spec import CsvSpec
from tf1compat.shared.errors import InputPipelineError, OptionError

__all__ = ["InputPipeline", "input_pipeline", "make_dataset"]

ENGINES = ("auto", "arrow", "tf")


def _engine(engine: str) -> str:
    from modern.input_pipeline import _arrow as _csv_arrow
    if engine not in ENGINES:
        raise OptionError("engine", engine, " or ".join(repr(e) for e in ENGINES))
    if engine == "auto":
        return "arrow" if _csv_arrow.available() else "tf"
    if engine == "arrow" and not _csv_arrow.available():
        raise OptionError("engine", engine, "'tf' or 'auto'", "pyarrow is not installed")
    return engine


class InputPipeline:
    """A CSV reader on tf.data with the contract of the TF1 queue pipeline.

    Create it with `input_pipeline(...)`. Nothing runs until the dataset is
    iterated; the object is also a context manager (it holds no threads: the
    `with` form only mirrors the TF1 side).

    Attributes:
      spec: the checked options (`CsvSpec`).
      files: the resolved input files (`InputFile`), in reading order.
      bad_rows: a `BadRowReport` of the rows skipped with on_bad_row='skip',
        counted per file (every pass over the dataset adds to it).
      engine: the decoder of byte ranges: "arrow" or "tf".
      dataset: the `tf.data.Dataset` of batches.
    """

    def __init__(self, files: Any, record_defaults: Any, *, num_parallel_reads: Optional[int] = None,
                 engine: str = "auto", chunk_bytes: int = 4 << 20, **options: Any):
        self.spec = CsvSpec.build(files, record_defaults, **options)
        if num_parallel_reads is not None and (
                isinstance(num_parallel_reads, bool) or not isinstance(num_parallel_reads, int)
                or num_parallel_reads < 1):
            raise OptionError("num_parallel_reads", num_parallel_reads, "an int >= 1 or None")
        if isinstance(chunk_bytes, bool) or not isinstance(chunk_bytes, int) or chunk_bytes < 1:
            raise OptionError("chunk_bytes", chunk_bytes, "an int >= 1")
        self.engine = _engine(engine)
        self.files: list[InputFile] = resolve(self.spec.patterns, allow_fallback=True)
        self.bad_rows = BadRowReport()
        self._parallel = num_parallel_reads or max(2, min(8, os.cpu_count() or 2))
        self._chunk_bytes = chunk_bytes
        self._builder = None
        self._dataset = None

    @property
    def dataset(self) -> Any:
        if self._dataset is None:
            from modern.input_pipeline._dataset import DatasetBuilder
            spec = self.spec
            read = "record" if any(f.via_fallback for f in self.files) else spec.read
            if read != spec.read:
                import dataclasses
                spec = dataclasses.replace(spec, read=read)
            self._builder = DatasetBuilder(spec, self.files, self.bad_rows, engine=self.engine,
                                           chunk_bytes=self._chunk_bytes, parallel=self._parallel)
            self._dataset = self._builder.build()
        return self._dataset

    def start(self, session: Any = None) -> "InputPipeline":
        """Builds the dataset (the TF1 side starts threads here). Returns self."""
        if session is not None:
            raise OptionError("session", session, "None", "tf.data needs no session")
        _ = self.dataset
        return self

    def close(self) -> None:
        """Nothing to stop: tf.data iterators end with the loop that holds them."""

    def __enter__(self) -> "InputPipeline":
        return self.start()

    def __exit__(self, exc_type, exc, traceback) -> None:
        self.close()

    def _raised_in(self, error: Exception) -> Optional[BaseException]:
        """The error a py_function of the pipeline raised that became `error`, if any."""
        message = str(error)
        for raised in reversed(self._builder.raised if self._builder else []):
            if str(raised) in message:
                return raised
        return None

    def __iter__(self) -> Iterator[Any]:
        """Yields batches (numpy arrays in a dict or tuple) until the input ends.

        Raises:
          BadRowError: a row does not decode and on_bad_row is 'raise'.
          InputPipelineError: reading failed (the message says why).
        """
        import tensorflow as tf

        from tf1compat.shared.csv_rows import decode_reason
        iterator = iter(self.dataset)
        while True:
            try:
                batch = next(iterator)
            except StopIteration:
                return
            except tf.errors.OpError as error:
                raised = self._raised_in(error)
                if raised is not None:
                    raise raised from None
                raise InputPipelineError(f"reading CSV failed: {decode_reason(error)}") from error
            yield tf.nest.map_structure(lambda t: t.numpy(), batch)


def input_pipeline(files: Any, record_defaults: Any, *, column_names: Any = None,
                   field_delim: str = ",", header_lines: int = 0, select_cols: Any = None,
                   na_value: str = "", use_quote_delim: bool = True,
                   num_epochs: Optional[int] = 1, shuffle: bool = False,
                   shuffle_files: bool = False, seed: Optional[int] = None,
                   shuffle_buffer: int = 10_000,
                   batch_size: int = 1024, drop_remainder: bool = False, read: str = "batch",
                   on_bad_row: str = "raise", num_parallel_reads: Optional[int] = None,
                   engine: str = "auto", chunk_bytes: int = 4 << 20) -> InputPipeline:
    """Builds the tf.data pipeline that reads CSV files into batches of columns.

    Same files and options, no shuffle: the same rows in the same order and
    the same batches as `tf1compat.input_pipeline.input_pipeline`.

    Args:
      files, record_defaults, column_names, field_delim, header_lines,
      select_cols, na_value, use_quote_delim, num_epochs, seed, shuffle_buffer,
      batch_size, drop_remainder: as in `tf1compat.input_pipeline.input_pipeline`.
      on_bad_row: "raise" ends the iteration with `BadRowError` (naming file
        and line) in place of the batch that would hold the bad row (the TF1
        side also yields the rows just before it); iterating `.dataset`
        directly, the TensorFlow error carries the same message. "skip" skips
        bad rows and counts them per file in `pipeline.bad_rows`.
      shuffle: visit byte ranges in a seeded random order each epoch
        (read="record": files, in one seeded order), and mix rows through a
        shuffle buffer of `shuffle_buffer` rows (`Dataset.shuffle`).
      shuffle_files: visit the files in a new seeded random order each epoch
        and keep each file's rows in order (TF1's `string_input_producer`
        default); the rows are not mixed unless `shuffle` is also given.
      read: "batch" reads line-aligned byte ranges of `chunk_bytes`; "record"
        reads line by line (`TextLineDataset`), the per-line way. HDFS paths
        without TensorFlow's filesystem plugin are always read by line.
      num_parallel_reads: ranges or blocks read and decoded at once; default
        the number of CPUs (at least 2, at most 8).
      engine: "arrow" decodes ranges with pyarrow where that provably agrees
        with tf.io.decode_csv (2-4x faster per core) and falls back to
        decode_csv elsewhere; "tf" uses decode_csv only; "auto" (default) is
        "arrow" when pyarrow is installed. Rows and errors are the same.
      chunk_bytes: the size of a byte range.

    Returns:
      An `InputPipeline`: `.dataset`, or iterate it for numpy batches.

    Raises:
      OptionError: an option value is not accepted.
      InputFileError: a file is missing, empty or a directory, a glob matches
        nothing, or an HDFS path cannot be read.
    """
    return InputPipeline(
        files, record_defaults, num_parallel_reads=num_parallel_reads, engine=engine,
        chunk_bytes=chunk_bytes, column_names=column_names, field_delim=field_delim,
        header_lines=header_lines, select_cols=select_cols, na_value=na_value,
        use_quote_delim=use_quote_delim, num_epochs=num_epochs, shuffle=shuffle,
        shuffle_files=shuffle_files, seed=seed,
        shuffle_buffer=shuffle_buffer, batch_size=batch_size, drop_remainder=drop_remainder,
        read=read, on_bad_row=on_bad_row)


def make_dataset(x: Any, y: Any = None, epochs: Optional[int] = 1, batch_size: int = 32,
                 shuffle: bool = True, *, seed: Optional[int] = None,
                 buffer_size: Optional[int] = None, drop_remainder: bool = False) -> Any:
    """The seeds' `make_dataset(x, y, epochs, batch_size, shuffle)`, in the right order.

    from_tensor_slices -> shuffle (examples, not batches; reshuffled every
    epoch; seeded) -> repeat (after the shuffle, so that every epoch holds each
    example once) -> batch -> prefetch(AUTOTUNE).

    Args:
      x: features: an array, or a dict/tuple of arrays with the same first dimension.
      y: labels with that first dimension, or None for a dataset of x only.
      epochs: passes over the data; None repeats forever.
      batch_size: examples per batch.
      shuffle: shuffle the examples (with a buffer holding all of them unless
        `buffer_size` is given).
      seed: the shuffle seed; with a seed, the order is the same every run.
      buffer_size: the shuffle buffer, in examples.
      drop_remainder: drop a last batch that has fewer examples.

    Returns:
      A `tf.data.Dataset` of `x` or `(x, y)` batches.

    Raises:
      OptionError: a bad epochs, batch_size or buffer_size.

    >>> import numpy as np
    >>> ds = make_dataset(np.arange(10), np.arange(10) * 2, epochs=2, batch_size=4, seed=1)
    >>> sorted(int(v) for xb, yb in ds for v in xb)  # each example once per epoch
    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9]
    """
    import tensorflow as tf
    if epochs is not None and (isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 1):
        raise OptionError("epochs", epochs, "an int >= 1, or None to repeat forever")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise OptionError("batch_size", batch_size, "an int >= 1")
    if buffer_size is not None and (not isinstance(buffer_size, int) or buffer_size < 1):
        raise OptionError("buffer_size", buffer_size, "an int >= 1 or None")
    data = tf.data.Dataset.from_tensor_slices(x if y is None else (x, y))
    if shuffle:
        count = int(data.cardinality())
        size = buffer_size or (count if count > 0 else 10_000)
        data = data.shuffle(size, seed=seed, reshuffle_each_iteration=True)
    if epochs != 1:
        data = data.repeat(epochs)
    return data.batch(batch_size, drop_remainder=drop_remainder).prefetch(tf.data.AUTOTUNE)
