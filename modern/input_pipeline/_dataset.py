"""The tf.data graph of the CSV pipeline.

read="batch" (default): each file is cut into line-aligned byte ranges
(`plan_shards`); several ranges are read and decoded in parallel and yielded
in order, then `rebatch` cuts the decoded ranges into batches of `batch_size`:

    ranges -> [shuffle] -> repeat -> map/interleave(read, decode) -> rebatch -> prefetch

Each range is decoded by the first of these that succeeds:

    1. pyarrow (engine="arrow"), where it provably agrees with decode_csv;
    2. tf.strings.split + one tf.io.decode_csv over all lines of the range;
    3. the slow path, a py_function that bisects the lines with decode_csv to
       find the bad rows, reports or raises them, and returns the good rows.

engine="tf" keeps 2 in the graph, with a try/except made of datasets
(`a.ignore_errors().concatenate(b).take(1)`: b only runs if a produced
nothing) per range inside the interleave; engine="arrow" runs all three in one
py_function per range (`map`, parallel and ordered), which starts faster.

read="record": TextLineDataset per file (or tf1compat.hdfs.text_line_dataset),
lines zipped with their line numbers and batched into blocks, blocks decoded
the same way (steps 2 and 3).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from tf1compat.shared.csv_files import (InputFile, first_line_number, hdfs_fallback, plan_shards,
                                  read_range)
from tf1compat.shared.csv_rows import (BadRowReport, DecodeFailed, concat_columns, decode_reason,
                                 handle_bad, locate, split_lines)
from tf1compat.shared.csv_spec import CsvSpec
from tf1compat.shared.errors import OptionError

_BLOCK_LINES = 8192


def _plain(function: Callable) -> Callable:
    """`function` for tf.data to trace without AutoGraph (it is plain TF ops): faster to build."""
    import tensorflow as tf
    return tf.autograph.experimental.do_not_convert(function)


class DatasetBuilder:
    """Builds the tf.data pipeline for one `InputPipeline` (see the module docstring)."""

    def __init__(self, spec: CsvSpec, files: list[InputFile], report: BadRowReport, *,
                 engine: str, chunk_bytes: int, parallel: int):
        self.spec = spec
        self.files = files
        self.report = report
        self.engine = engine
        self.chunk_bytes = chunk_bytes
        self.parallel = parallel
        self.raised: list[BaseException] = []   # errors raised inside py_functions
        self._lock = threading.Lock()
        self._arrow = None
        self._crlf = "some"
        self._final_cr = True
        if engine == "arrow":
            import pyarrow

            from modern.input_pipeline._arrow import ArrowDecoder, NotFast
            self._arrow = ArrowDecoder(spec)
            self._arrow_errors = (NotFast, pyarrow.ArrowException)

    # -- decoding ------------------------------------------------------------------
    def _decode(self, lines) -> tuple:
        import tensorflow as tf
        return tuple(tf.io.decode_csv(lines, record_defaults=self.spec.record_defaults(),
                                      **self.spec.decode_kwargs()))

    def _py(self, function: Callable, inputs: list) -> tuple:
        """A py_function (kept out of interpreter shutdown) returning the columns, shaped [None]."""
        from modern._py_guard import GUARD
        columns = GUARD.call(function, inputs, self.spec.tf_dtypes())
        for column in columns:
            column.set_shape([None])
        return tuple(columns)

    def _eager_decode(self, lines: list) -> list:
        import tensorflow as tf
        try:
            return [c.numpy() for c in self._decode(tf.constant(lines, dtype=tf.string))]
        except tf.errors.InvalidArgumentError as failure:
            raise DecodeFailed(decode_reason(failure)) from None

    def _recover(self, lines: list, where: Callable[[int], tuple[str, int]]) -> list:
        """Decodes lines one bisection at a time; skips or raises the bad ones."""
        good, bad = locate(len(lines), lambda lo, hi: self._eager_decode(lines[lo:hi]),
                           stop_at_first=self.spec.on_bad_row == "raise")
        failure = handle_bad(bad, where, lambda i: lines[i], self.report, self.spec.on_bad_row)
        if failure is not None:
            with self._lock:
                self.raised.append(failure)
            raise failure
        return concat_columns(good, self.spec.empty_columns())

    def _slow_range(self, chunk, file, start) -> list:
        return self._slow_bytes(chunk.numpy(), int(file), int(start))

    def _slow_bytes(self, data: bytes, file: int, start: int) -> list:
        path = self.files[file].path
        lines = split_lines(data)
        first: list[int] = []

        def where(index: int) -> tuple[str, int]:
            if not first:
                first.append(first_line_number(path, start))
            return path, first[0] + index
        return self._recover(lines, where)

    def _slow_block(self, lines, numbers, file) -> list:
        lines, numbers = list(lines.numpy()), numbers.numpy()
        path = self.files[int(file)].path
        return self._recover(lines, lambda i: (path, int(numbers[i])))

    def _arrow_range(self, file, start, length, final_cr, crlf) -> list:
        """engine="arrow": one range in one py_function, by the first decoder that works.

        pyarrow where it provably agrees with decode_csv, else one eager
        decode_csv over all lines, else the slow path. The range is read here
        (no tensor copies); one small traced function keeps start-up short.
        """
        import tensorflow as tf
        file, start = int(file), int(start)
        data = read_range(self.files[file].path, start, int(length))
        try:
            return self._arrow(data, bool(final_cr))
        except self._arrow_errors:
            pass
        try:
            lines = self._split_range(tf.constant(data), tf.constant(bool(crlf)),
                                      tf.constant(bool(final_cr)))
            return [column.numpy() for column in self._decode(lines)]
        except tf.errors.InvalidArgumentError:
            return self._slow_bytes(data, file, start)

    @staticmethod
    def _first_success(*attempts) -> Any:
        """attempts[0], else attempts[1], ...: the dataset try/except (one element)."""
        chained = attempts[0]
        for attempt in attempts[1:]:
            chained = chained.concatenate(attempt)
        return chained.take(1)

    # -- read="batch": byte ranges ---------------------------------------------------
    def _split_range(self, chunk, crlf, final_cr):
        """Lines of a range as TextLineReader reads them (see rows.split_lines).

        Carriage returns before newlines are removed where planning saw CRLF
        (`self._crlf`: never, always, or per range); a line with one left over
        fails to decode and takes the slow path, which strips it. A range that
        ends its file with a CR loses that CR.
        """
        import tensorflow as tf
        if self._crlf == "always":
            chunk = tf.strings.regex_replace(chunk, "\r\n", "\n")
        elif self._crlf == "some":
            chunk = tf.cond(crlf, lambda: tf.strings.regex_replace(chunk, "\r\n", "\n"),
                            lambda: chunk)
        if self._final_cr:  # TextLineReader drops it (and an empty last line with it)
            chunk = tf.cond(final_cr, lambda: tf.strings.substr(chunk, 0, tf.strings.length(chunk) - 1),
                            lambda: chunk)
        lines = tf.strings.split(chunk, "\n")
        ends_with_newline = tf.equal(tf.strings.substr(chunk, -1, 1), "\n")
        return lines[:tf.size(lines) - tf.cast(ends_with_newline, tf.int32)]

    def _read_range(self, path, start, length, footer, crlf, final_cr, file):
        """One element: the range's bytes, with what decoding it needs."""
        import tensorflow as tf
        raw = tf.data.FixedLengthRecordDataset(path, length, header_bytes=start,
                                               footer_bytes=footer, buffer_size=1 << 20)
        return raw.map(_plain(lambda chunk: (chunk, crlf, final_cr, file, start)))

    def _range_dataset(self, chunk, crlf, final_cr, file, start):
        """The decoded range: decode_csv, else the slow path (a dataset try/except).

        The range was read before: ignore_errors must never see a read error,
        which does not advance its input and would be retried forever.
        """
        import tensorflow as tf
        source = tf.data.Dataset.from_tensors(chunk)
        return self._first_success(
            source.map(_plain(
                lambda c: self._decode(self._split_range(c, crlf, final_cr)))).ignore_errors(),
            source.map(_plain(lambda c: self._py(self._slow_range, [c, file, start]))))

    def _ranges(self):
        import tensorflow as tf
        shards = [s for f in self.files for s in plan_shards(f, self.spec.header_lines,
                                                              self.chunk_bytes)]
        sizes = [self.files[s.file].size for s in shards]
        crlf = [s.crlf for s in shards]
        self._crlf = "always" if crlf and all(crlf) else "some" if any(crlf) else "never"
        self._final_cr = any(s.final_cr for s in shards)
        table = (
            tf.constant([self.files[s.file].path for s in shards], tf.string),
            tf.constant([s.start for s in shards], tf.int64),
            tf.constant([s.length for s in shards], tf.int64),
            tf.constant([size - s.start - s.length for s, size in zip(shards, sizes)], tf.int64),
            tf.constant([s.crlf for s in shards], tf.bool),
            tf.constant([s.final_cr for s in shards], tf.bool),
            tf.constant([s.file for s in shards], tf.int64))
        if self.spec.shuffle_files and not self.spec.shuffle:
            return self._by_file(table, [s.file for s in shards])
        units = tf.data.Dataset.from_tensor_slices(table)
        return self._epochs(units, len(shards))

    def _file_order(self):
        """File indices, in a new seeded order each epoch (string_input_producer(shuffle=True))."""
        import tensorflow as tf
        count = len(self.files)
        order = tf.data.Dataset.range(count).shuffle(count, seed=self.spec.seed,
                                                     reshuffle_each_iteration=True)
        return order.repeat(self.spec.num_epochs) if self.spec.num_epochs != 1 else order

    def _by_file(self, table, shard_files: list):
        """The shards file by file, the files in a new order each epoch, each file's in order."""
        import tensorflow as tf
        first = [shard_files.index(f) if f in shard_files else 0 for f in range(len(self.files))]
        count = [shard_files.count(f) for f in range(len(self.files))]
        first, count = tf.constant(first, tf.int64), tf.constant(count, tf.int64)

        def shards_of(file):
            indices = tf.data.Dataset.range(first[file], first[file] + count[file])
            return indices.map(_plain(lambda i: tuple(column[i] for column in table)))
        return self._file_order().flat_map(_plain(shards_of))

    # -- read="record": lines ------------------------------------------------------
    def _lines_of(self, file: InputFile):
        import tensorflow as tf
        if file.via_fallback:
            lines = hdfs_fallback().text_line_dataset(file.path)
        else:
            lines = tf.data.TextLineDataset(file.path, buffer_size=1 << 20)
        return self._numbered_blocks(lines, tf.constant(file.index, tf.int64))

    def _numbered_blocks(self, lines, index):
        import tensorflow as tf
        skip = self.spec.header_lines
        numbered = tf.data.Dataset.zip((lines.skip(skip), tf.data.Dataset.range(skip + 1, 1 << 62)))
        block = max(self.spec.batch_size, _BLOCK_LINES)
        return numbered.batch(block).map(_plain(lambda l, n: (l, n, index)))

    def _blocks_by_file(self):
        """read="record" with shuffle_files: the files in a new seeded order each epoch."""
        import random

        import tensorflow as tf
        if any(f.via_fallback for f in self.files):  # Python datasets: orders drawn here
            if self.spec.num_epochs is None:
                raise OptionError("shuffle_files", True, "False for num_epochs=None here",
                                  "hdfs:// read without TensorFlow's filesystem plugin cannot "
                                  "reshuffle the files forever; register the plugin, or give "
                                  "num_epochs")
            draw, parts = random.Random(self.spec.seed), []
            for _ in range(self.spec.num_epochs):
                order = list(range(len(self.files)))
                draw.shuffle(order)
                parts += [self._lines_of(self.files[i]) for i in order]
            blocks = parts[0]
            for part in parts[1:]:
                blocks = blocks.concatenate(part)
            return blocks
        paths = tf.constant([f.path for f in self.files], tf.string)

        def blocks_of(file):
            lines = tf.data.TextLineDataset(paths[file], buffer_size=1 << 20)
            return self._numbered_blocks(lines, file)
        return self._file_order().flat_map(_plain(blocks_of))

    def _block_dataset(self, lines, numbers, file):
        import tensorflow as tf
        if self.spec.header_lines == 0:  # a BOM starts line 1 (TextLineDataset keeps it)
            lines = tf.cond(
                tf.equal(numbers[0], 1),
                lambda: tf.concat([tf.strings.regex_replace(lines[:1], "^\ufeff", ""), lines[1:]], 0),
                lambda: lines)
        block = tf.data.Dataset.from_tensors((lines, numbers, file))
        return self._first_success(
            block.map(_plain(lambda l, n, f: self._decode(l))).ignore_errors(),
            block.map(_plain(lambda l, n, f: self._py(self._slow_block, [l, n, f]))))

    def _blocks(self):
        if self.spec.shuffle_files and not self.spec.shuffle:
            return self._blocks_by_file()
        order = list(range(len(self.files)))
        if self.spec.shuffle:
            import random
            random.Random(self.spec.seed).shuffle(order)
        parts = [self._lines_of(self.files[i]) for i in order]
        while len(parts) > 1:  # a balanced tree of concatenations
            parts = [a.concatenate(b) for a, b in zip(parts[::2], parts[1::2])] + \
                ([parts[-1]] if len(parts) % 2 else [])
        return self._epochs(parts[0], None)

    # -- assembly ------------------------------------------------------------------
    def _epochs(self, units, count: Optional[int]):
        if self.spec.shuffle and count:
            units = units.shuffle(count, seed=self.spec.seed, reshuffle_each_iteration=True)
        if self.spec.num_epochs != 1:
            units = units.repeat(self.spec.num_epochs)
        return units

    def build(self):
        """The dataset of batches: a tuple of [batch] column tensors, or a dict by name."""
        import tensorflow as tf
        spec = self.spec
        def parallel(data, function):
            return data.interleave(_plain(function), cycle_length=self.parallel,
                                   num_parallel_calls=self.parallel, deterministic=True)

        if spec.read == "record":
            rows = parallel(self._blocks(), self._block_dataset)
        elif self._arrow is not None:
            def arrow(path, start, length, footer, crlf, final_cr, file):
                return self._py(self._arrow_range, [file, start, length, final_cr, crlf])
            rows = self._ranges().map(_plain(arrow), num_parallel_calls=self.parallel,
                                      deterministic=True)
        else:
            rows = parallel(parallel(self._ranges(), self._read_range), self._range_dataset)
        if spec.shuffle:
            rows = rows.unbatch().shuffle(spec.shuffle_buffer, seed=spec.seed,
                                          reshuffle_each_iteration=True)
            batches = rows.batch(spec.batch_size, drop_remainder=spec.drop_remainder)
        else:
            batches = rows.rebatch(spec.batch_size, drop_remainder=spec.drop_remainder)
        if spec.column_names is not None:
            names = spec.column_names
            batches = batches.map(_plain(lambda *columns: dict(zip(names, columns))))
        # tf.data's static rewrites cost more at start-up (the functions are large)
        # than they gain here; a user's own with_options() on top overrides this.
        options = tf.data.Options()
        options.experimental_optimization.apply_default_optimizations = False
        return batches.prefetch(tf.data.AUTOTUNE).with_options(options)
