"""The TF1 CSV queue pipeline as one context-managed object.

The seed scripts read CSV with `string_input_producer` -> `TextLineReader` ->
`decode_csv`, a `Coordinator` and queue runners, one line per `sess.run`.
`input_pipeline(...)` builds that graph into the session's graph, reads
thousands of lines per step (`read_up_to`) by default, starts the threads on
entry and always stops and joins them on exit, normally or by exception:

    with tf1compat.session() as sess:
        with input_pipeline("data/*.csv", [[0], [0.0], [""]], batch_size=512,
                            session=sess) as rows:
            for x, y, label in rows:          # numpy batches until OutOfRange
                ...

`modern.input_pipeline.input_pipeline` takes the same arguments and gives the
same rows in the same order from tf.data (without shuffling). Importing this
module does not import TensorFlow.
"""

from __future__ import annotations

import threading
from typing import Any, Iterator, Optional

from tf1compat.shared.csv_files import InputFile, resolve
from tf1compat.input_pipeline._record_batches import record_batches
from tf1compat.shared.csv_rows import BadRowReport
from tf1compat.shared.csv_spec import CsvSpec
from tf1compat.shared.errors import InputPipelineError, OptionError

__all__ = ["InputPipeline", "input_pipeline"]

_MIN_READ = 4096


class InputPipeline:
    """A CSV reader on TF1 queues: string_input_producer, TextLineReader, decode_csv.

    Create it with `input_pipeline(...)` (same arguments). The graph is built
    at construction, into `session.graph` (or the default graph); `start()` or
    `with` initializes the pipeline's local variables and starts its threads
    under a `tf.compat.v1.train.Coordinator`: the filename queue's runner and,
    in batch mode, the reader (read_up_to into a queue of lines) and the
    feeder (decode_csv, then batches into the batch queue). `close()`
    (or leaving the `with` block) stops and joins all of them.

    Attributes:
      spec: the checked options (`CsvSpec`).
      files: the resolved input files (`InputFile`), in reading order.
      bad_rows: a `BadRowReport` of the rows skipped with on_bad_row='skip',
        counted per file.
      tensors: the raw batch tensors to run yourself (a dict by column name, or
        a tuple): in batch mode the batch queue's dequeue (run them while the
        pipeline is started; OutOfRange ends the input); in record mode the
        scalars of one `reader.read()` per run, as the seeds had them.
    """

    def __init__(self, files: Any, record_defaults: Any, *, session: Any = None,
                 queue_capacity: int = 4, name: Optional[str] = None, **options: Any):
        import tensorflow as tf

        from tf1compat.input_pipeline import _queue_graph as queue_graph
        self.spec = CsvSpec.build(files, record_defaults, **options)
        if isinstance(queue_capacity, bool) or not isinstance(queue_capacity, int) or \
                queue_capacity < 1:
            raise OptionError("queue_capacity", queue_capacity, "an int >= 1")
        self.files: list[InputFile] = resolve(self.spec.patterns, allow_fallback=False)
        self.bad_rows = BadRowReport()
        if session is not None:
            graph = session.graph
        elif tf.executing_eagerly():
            raise InputPipelineError(
                "the TF1 input pipeline builds graph ops, and no graph or session was given; "
                "pass session=sess (e.g. from tf1compat.session()), or create the pipeline inside "
                "`with graph.as_default():`")
        else:
            graph = tf.compat.v1.get_default_graph()
        self._session = session
        self._graph = graph
        self._ops = queue_graph.build(
            self.spec, self.files, graph, read_size=max(self.spec.batch_size, _MIN_READ),
            queue_capacity=queue_capacity, name=name)
        self._coord = None
        self._threads: list[threading.Thread] = []
        self._feeder = None
        self._errors = None
        self._runner = None
        self._coordinator = None   # the script's Coordinator (start_queue_runners)
        self._state = "built"
        self._error_raised = False

    # -- raw tensors -------------------------------------------------------------
    @property
    def tensors(self) -> Any:
        columns = self._ops.dequeue if self.spec.read == "batch" else self._ops.records
        return self.spec.structure(columns)

    @property
    def session(self) -> Any:
        return self._session

    @property
    def running(self) -> bool:
        return self._state == "running"

    # -- lifecycle ---------------------------------------------------------------
    def start(self, session: Any = None) -> "InputPipeline":
        """Initializes the pipeline's local variables and starts its threads.

        Args:
          session: the `tf.compat.v1.Session` to run in; defaults to the one
            given at construction, else the default session.

        Returns:
          self.

        Raises:
          InputPipelineError: no session, a session on another graph, or the
            pipeline was already closed.
        """
        import tensorflow as tf

        from tf1compat.input_pipeline._feeder import FirstError, StepRunner, feeder, reader
        if self._state == "running":
            return self
        if self._state == "closed":
            raise InputPipelineError("this input pipeline was closed; create a new one")
        for candidate in (session, self._session, tf.compat.v1.get_default_session()):
            if candidate is not None:
                session = candidate
                break
        if session is None:
            raise InputPipelineError(
                "no session to run the input pipeline in; pass session=sess, or start it "
                "inside `with sess.as_default():`")
        if session.graph is not self._graph:
            raise InputPipelineError(
                "the session runs another graph than the one the pipeline was built in; "
                "build the pipeline with session=sess, or inside `with sess.graph.as_default():`")
        self._session = session
        session.run(self._ops.init_op)
        self._coord = tf.compat.v1.train.Coordinator()
        self._errors = FirstError(self._report_error)
        self._runner = StepRunner(self._ops, session, self.spec, self.bad_rows)
        try:
            for runner in self._ops.queue_runners:
                self._threads.extend(runner.create_threads(session, self._coord, daemon=True,
                                                           start=True))
            if self.spec.read == "batch":
                stages = [reader(self._ops, session, self._coord, self._errors),
                          feeder(self._runner, self._ops, session, self.spec, self._coord,
                                 self._errors)]
                self._feeder = stages[-1]
                for stage in stages:
                    self._coord.register_thread(stage.thread)
                    self._threads.append(stage.thread)
                    stage.thread.start()
        except BaseException:
            self._state = "running"
            self.close()
            raise
        self._state = "running"
        return self

    def start_queue_runners(self, sess: Any = None, coord: Any = None) -> list:
        """Starts the pipeline where a TF1 script started its queue chain's runners.

        `tf1compat migrate` writes `threads = rows.start_queue_runners(sess=sess,
        coord=coord)` for `tf.compat.v1.train.start_queue_runners(sess=sess,
        coord=coord)` once the chain became this pipeline, so the script's own
        Coordinator loop behaves as before:

        - a reading error of the pipeline's threads (a bad row, a file that
          cannot be read) is reported with `coord.request_stop(error)` when it
          happens, so `coord.should_stop()` turns True and `coord.join(threads)`
          raises it, as TF1's queue runners reported theirs;
        - once `coord` is asked to stop, the pipeline is closed: its threads
          stop and are joined, and a `sess.run` waiting on the batch queue gets
          OutOfRange, as TF1's runners closed their queues.

        The graph's other queue runners are started too, as the TF1 call did
        (the pipeline's own are not in the graph's collection).

        Args:
          sess: the `tf.compat.v1.Session` (as for `start()`).
          coord: the script's `tf.compat.v1.train.Coordinator`.

        Returns:
          The threads to pass to `coord.join(threads)`: one that waits for
          `coord` to stop and then closes the pipeline, then those of the
          graph's other queue runners.

        Raises:
          InputPipelineError: no coord (a reading error would then go unseen),
            the pipeline was started or closed already, or what `start()` raises.
        """
        import tensorflow as tf
        if coord is None:
            raise InputPipelineError(
                "start_queue_runners needs coord= (a tf.compat.v1.train.Coordinator): reading "
                "errors are reported to it; or use `with pipeline:` / start() and close()")
        if self._state != "built":
            raise InputPipelineError(f"this input pipeline was {self._state} already")
        self._coordinator = coord
        self.start(sess)
        watcher = threading.Thread(target=self._close_when_stopped, args=(coord,),
                                   name="tf1compat-csv-coordinator", daemon=True)
        watcher.start()
        others = []
        if self._graph.get_collection(tf.compat.v1.GraphKeys.QUEUE_RUNNERS):
            from tf1compat.input_pipeline._queue_graph import _quiet
            with _quiet():
                others = tf.compat.v1.train.start_queue_runners(sess=self._session, coord=coord)
        return [watcher, *others]

    def _close_when_stopped(self, coord: Any) -> None:
        coord.wait_for_stop()
        self.close()

    def _report_error(self, error: BaseException) -> None:
        """Reports a thread's first error to the script's Coordinator, if there is one."""
        coord = self._coordinator
        if coord is None:
            return
        try:
            coord.request_stop((type(error), error, error.__traceback__))
        except BaseException as raised:
            if raised is not error:  # a Coordinator joined already re-raises the error given
                raise

    def close(self, grace_seconds: float = 30.0) -> None:
        """Stops and joins every thread of the pipeline; safe to call twice.

        Raises:
          InputPipelineError: a thread was still running after `grace_seconds`.
        """
        if self._state != "running":
            self._state = "closed"
            return
        import tensorflow as tf
        self._state = "closed"
        self._coord.request_stop()
        for op in self._ops.cancel_ops:
            try:
                self._session.run(op)
            except (RuntimeError, tf.errors.OpError):  # a closed session: its threads have stopped
                pass
        try:
            self._coord.join(self._threads, stop_grace_period_secs=grace_seconds)
        except RuntimeError as error:
            if "threads still running" in str(error):
                raise InputPipelineError(f"input pipeline threads did not stop: {error}") from None
            self._keep(error)
        except Exception as error:  # noqa: BLE001 - a queue runner's error from before the stop
            self._keep(error)
        finally:
            self._threads = [t for t in self._threads if t.is_alive()]

    def _keep(self, error: BaseException) -> None:
        """Keeps an error `join` re-raised as the pipeline's (unless one came first): the stop
        goes on, and the consumer still sees the reading error."""
        if self._errors is not None:
            self._errors.set(error)

    def __enter__(self) -> "InputPipeline":
        return self.start()

    def __exit__(self, exc_type, exc, traceback) -> None:
        drained = self._drained()
        self.close()
        pending = self._errors.error if self._errors is not None else None
        if exc_type is None and drained and pending is not None and not self._error_raised:
            self._error_raised = True
            raise pending   # a raw-tensor loop met OutOfRange early: say why

    def _drained(self) -> bool:
        """Whether the batch queue was consumed to its end (the feeder is done, nothing left)."""
        if self._state != "running" or self._feeder is None:
            return False
        import tensorflow as tf
        try:
            closed, size = self._session.run(self._ops.queue_size)
        except (RuntimeError, tf.errors.OpError):  # a closed session or queue: not drained by us
            return False
        return bool(closed) and int(size) == 0

    # -- iteration -----------------------------------------------------------------
    def __iter__(self) -> Iterator[Any]:
        """Yields batches (numpy arrays in a dict or tuple) until the input ends.

        Starts the pipeline if needed, and then also closes it at the end.

        Raises:
          BadRowError: a row does not decode and on_bad_row is 'raise'.
          InputPipelineError: reading failed (the message says why).
        """
        owned = self._state == "built"
        if owned:
            self.start()
        elif self._state != "running":
            raise InputPipelineError("this input pipeline was closed; create a new one")
        try:
            batches = self._batches() if self.spec.read == "batch" else \
                record_batches(self.spec, self._runner.next_block)
            for columns in batches:
                yield self.spec.structure(columns)
        finally:
            if owned:
                self.close()

    def _batches(self) -> Iterator[list]:
        import tensorflow as tf
        while True:
            try:
                columns = self._session.run(self._ops.dequeue)
            except tf.errors.OutOfRangeError:
                self._feeder.thread.join()
                if self._errors.error is not None and not self._error_raised:
                    self._error_raised = True
                    raise self._errors.error from None
                return
            except (tf.errors.CancelledError, RuntimeError) as error:
                if self._state != "running":
                    raise InputPipelineError("the input pipeline was closed while reading") from None
                raise InputPipelineError(f"reading the batch queue failed: {error}") from error
            yield columns


def input_pipeline(files: Any, record_defaults: Any, *, column_names: Any = None,
                   field_delim: str = ",", header_lines: int = 0, select_cols: Any = None,
                   na_value: str = "", use_quote_delim: bool = True,
                   num_epochs: Optional[int] = 1, shuffle: bool = False,
                   shuffle_files: bool = False, seed: Optional[int] = None,
                   shuffle_buffer: int = 10_000,
                   batch_size: int = 1024, drop_remainder: bool = False, read: str = "batch",
                   on_bad_row: str = "raise", session: Any = None, queue_capacity: int = 4,
                   name: Optional[str] = None) -> InputPipeline:
    """Builds the TF1 queue pipeline that reads CSV files into batches of columns.

    Same files and options, no shuffle: the same rows in the same order as
    `modern.input_pipeline.input_pipeline`. Batches hold `batch_size` rows
    (across file ends), the last one fewer unless `drop_remainder`.

    Args:
      files: a path, `file://` or `hdfs://` URL, or glob, or a list of them;
        globs expand in sorted order.
      record_defaults: one entry per output column: a default value (`0`,
        `[0.0]`, `""`) or a dtype for a required column (`tf.int64`,
        `"float32"`, `int`, `str`).
      column_names: names for the columns; batches are then dicts.
      field_delim: the one-character field delimiter.
      header_lines: lines to skip at the top of every file.
      select_cols: the file's column indices to decode (increasing), one per
        record_defaults entry.
      na_value: a field equal to this is missing (takes its default); empty
        fields always are.
      use_quote_delim: RFC 4180 double quotes (a quoted field may hold the
        delimiter); False reads quotes as plain characters.
      num_epochs: passes over the files; None repeats forever.
      shuffle: visit files in a seeded random order each epoch and mix rows
        through a RandomShuffleQueue of `shuffle_buffer` rows.
      shuffle_files: visit the files in a new seeded random order each epoch
        and keep each file's rows in order, as TF1's
        `string_input_producer(shuffle=True)` (its default) does; the rows
        are not mixed unless `shuffle` is also given.
      seed: the seed of every shuffle.
      shuffle_buffer: rows kept in the shuffle queue (min_after_dequeue).
      batch_size: rows per batch.
      drop_remainder: drop a last batch that has fewer rows.
      read: "batch" reads many lines per step (`read_up_to`) in a feeder
        thread; "record" reads one line per `sess.run` in the caller's thread,
        as the seed scripts did (for comparison; thousands of times slower).
      on_bad_row: "raise" stops at the first row that does not decode with
        `BadRowError` (naming file and line), after yielding the rows before it;
        "skip" skips such rows and counts them per file in `pipeline.bad_rows`.
        A raw-tensor loop gets OutOfRange there, and the error on leaving the
        `with` block.
      session: the `tf.compat.v1.Session` to build into and run in; defaults
        to the default graph and, at start, the default session.
      queue_capacity: batches the batch queue holds ahead of the consumer.
      name: the name scope of the pipeline's ops.

    Returns:
      An `InputPipeline`; use it in a `with` block (or call `start()`/`close()`).

    Raises:
      OptionError: an option value is not accepted.
      InputFileError: a file is missing, empty or a directory, a glob matches
        nothing, or an HDFS path cannot be read without the filesystem plugin.
      InputPipelineError: no session or graph to build into.
    """
    return InputPipeline(
        files, record_defaults, session=session, queue_capacity=queue_capacity, name=name,
        column_names=column_names, field_delim=field_delim, header_lines=header_lines,
        select_cols=select_cols, na_value=na_value, use_quote_delim=use_quote_delim,
        num_epochs=num_epochs, shuffle=shuffle, shuffle_files=shuffle_files, seed=seed,
        shuffle_buffer=shuffle_buffer,
        batch_size=batch_size, drop_remainder=drop_remainder, read=read, on_bad_row=on_bad_row)
