"""Running the TF1 queue graph: reads decoded, bad rows recovered, batches fed.

`StepRunner` runs one read+decode step and, when the batched decode fails,
fetches the stashed lines and bisects them (`rows.locate`). The pipeline's
queue runners are two threads registered with its Coordinator: the reader
runs `read_up_to` into a queue of raw lines; the feeder decodes them in order,
regroups the rows into batches of exactly `batch_size` (reads stop at file
ends) and enqueues them. Each closes its queue when done, so the next stage
drains it and then gets OutOfRange; the first error of either thread is kept
for the consumer, who raises it after the batches before it.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from tf1compat.input_pipeline._queue_graph import QueueGraph
from tf1compat.shared.csv_rows import (BadRowReport, DecodeFailed, concat_columns, decode_reason,
                                 handle_bad, locate)
from tf1compat.shared.csv_spec import CsvSpec
from tf1compat.shared.errors import BadRowError, InputPipelineError


def parse_key(key: bytes) -> tuple[str, int]:
    """TextLineReader's key b'path:line' as (path, line)."""
    path, _, line = key.decode("utf-8", "replace").rpartition(":")
    return path, int(line)


class StepRunner:
    """Runs read+decode steps of a `QueueGraph` and recovers from bad rows."""

    def __init__(self, graph: QueueGraph, session: Any, spec: CsvSpec, report: BadRowReport):
        self._graph = graph
        self._session = session
        self._spec = spec
        self._report = report
        self._reads = 0
        self._pending: Optional[BaseException] = None

    def next_block(self) -> Optional[list]:
        """Decoded columns (numpy) of the next read, or None when the input is exhausted.

        With on_bad_row='raise', the block that holds a bad row is returned up
        to that row, and the next call raises its `BadRowError`.

        Raises:
          BadRowError: a row does not decode and on_bad_row is 'raise'.
          InputPipelineError: reading failed for another reason.
        """
        import tensorflow as tf
        if self._pending is not None:   # the rows before it went out with the last block
            raise self._pending
        try:
            *columns, self._reads = self._session.run(self._graph.step)
            return columns
        except tf.errors.OutOfRangeError:
            return None
        except tf.errors.InvalidArgumentError as error:
            return self._recover(error)
        except tf.errors.CancelledError:
            raise
        except tf.errors.OpError as error:
            raise InputPipelineError(f"reading CSV failed: {decode_reason(error)}") from error

    def _recover(self, error: Exception) -> list:
        import tensorflow as tf
        keys, lines, reads = self._session.run(self._graph.stash)
        if reads == self._reads:
            raise InputPipelineError(f"reading CSV failed: {decode_reason(error)}") from error
        self._reads = reads
        keys, lines = list(keys), list(lines)
        graph, session = self._graph, self._session

        def try_decode(lo: int, hi: int) -> list:
            try:
                return session.run(graph.check_decoded, {graph.check_keys: keys[lo:hi],
                                                          graph.check_lines: lines[lo:hi]})
            except tf.errors.InvalidArgumentError as failure:
                raise DecodeFailed(decode_reason(failure)) from None

        good, bad = locate(len(lines), try_decode, stop_at_first=self._spec.on_bad_row == "raise")
        if not bad:
            raise InputPipelineError(
                f"decoding CSV failed, yet every line decodes alone: {decode_reason(error)}"
            ) from error
        self._pending = handle_bad(bad, lambda i: parse_key(keys[i]), lambda i: lines[i],
                                   self._report, self._spec.on_bad_row)
        return concat_columns(good, self._spec.empty_columns())


class FirstError:
    """The first error of any pipeline thread, kept for the consumer (thread-safe).

    `on_first`, when given, is called with that first error as soon as it is
    set (before the thread closes its queue), e.g. to report it to a TF1
    Coordinator.
    """

    def __init__(self, on_first: Optional[Callable[[BaseException], None]] = None) -> None:
        self._lock = threading.Lock()
        self._on_first = on_first
        self.error: Optional[BaseException] = None

    def set(self, error: BaseException) -> None:
        with self._lock:
            if self.error is not None:
                return
            self.error = error
        if self._on_first is not None:
            self._on_first(error)


class _Stage:
    """One pipeline thread: runs `body`, keeps its error, always runs `finish`."""

    def __init__(self, name: str, body: Callable[[], None], finish: Any, session: Any,
                 coord: Any, errors: FirstError):
        self._body = body
        self._finish = finish
        self._session = session
        self._coord = coord
        self._errors = errors
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self) -> None:
        import tensorflow as tf
        try:
            self._body()
        except (tf.errors.CancelledError, tf.errors.OutOfRangeError) as error:
            if not self._coord.should_stop():
                self._errors.set(InputPipelineError(f"a pipeline queue was closed early: {error}"))
        except BaseException as error:  # noqa: BLE001 - kept for the consumer, not lost
            if not self._coord.should_stop():  # while stopping, errors come from the stop
                self._errors.set(error)
        finally:
            try:
                self._session.run(self._finish)
            except (RuntimeError, tf.errors.OpError):  # a closed session: nothing waits then
                pass


def reader(graph: QueueGraph, session: Any, coord: Any, errors: FirstError) -> _Stage:
    """The thread that runs read_up_to into the lines queue until the files end."""
    import tensorflow as tf

    def body() -> None:
        try:
            while not coord.should_stop():
                session.run(graph.read_lines)
        except tf.errors.OutOfRangeError:
            return
        except (tf.errors.CancelledError, RuntimeError):
            raise
        except tf.errors.OpError as error:
            raise InputPipelineError(f"reading CSV failed: {decode_reason(error)}") from error
    return _Stage("tf1compat-csv-reader", body, graph.close_lines, session, coord, errors)


def feeder(runner: StepRunner, graph: QueueGraph, session: Any, spec: CsvSpec, coord: Any,
           errors: FirstError) -> _Stage:
    """The thread that decodes reads and enqueues batches of exactly batch_size rows."""
    import numpy as np

    def enqueue(columns: list) -> None:
        session.run(graph.enqueue, dict(zip(graph.enqueue_inputs, columns)))

    def body() -> None:
        carry: list = []
        failure = None
        while not coord.should_stop():
            try:
                columns = runner.next_block()
            except BadRowError as error:   # first deliver the rows before it
                failure = error
                break
            if columns is None:
                break
            if not len(columns[0]):
                continue
            if spec.shuffle:
                enqueue(columns)
                continue
            carry.append(columns)
            held = sum(len(c[0]) for c in carry)
            if held < spec.batch_size:
                continue
            merged = [np.concatenate([c[i] for c in carry]) if len(carry) > 1 else carry[0][i]
                      for i in range(len(columns))]
            cut = held - held % spec.batch_size
            for lo in range(0, cut, spec.batch_size):
                enqueue([m[lo:lo + spec.batch_size] for m in merged])
            carry = [[m[cut:] for m in merged]] if cut < held else []
        if carry and not spec.drop_remainder and not coord.should_stop():
            enqueue(concat_columns(carry, spec.empty_columns()))
        if failure is not None:
            raise failure
    return _Stage("tf1compat-csv-feeder", body, graph.close_queue, session, coord, errors)
