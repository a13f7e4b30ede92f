"""The TF1 graph of the queue pipeline: filename queue, reader, decode, batch queue.

Built once, into the session's graph, when the pipeline is created:

    string_input_producer -> TextLineReader.read_up_to -> (reader thread) -> lines queue
        -> stash -> decode_csv -> (feeder thread) -> FIFOQueue / RandomShuffleQueue

(read="record": TextLineReader.read -> stash -> decode_csv, run by the caller.)

The stash is a pair of local variables that hold the keys ("file:line") and
lines of the last read, assigned before the decode runs; when the decode
fails, the lines are fetched from there and bisected with a second,
placeholder-fed decode_csv (`check_*`), so the fast path never ships lines to
Python. Every op is created here, so the graph can be finalized afterwards.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from tf1compat.shared.csv_files import InputFile
from tf1compat.shared.csv_spec import CsvSpec


@dataclasses.dataclass
class QueueGraph:
    """The ops and tensors of one pipeline (see the module docstring)."""

    read_lines: Any          # batch mode: read_up_to into the queue of raw lines
    close_lines: Any         # batch mode: close that queue (the reader is done)
    step: list               # decoded columns of one read, then the read counter
    stash: list              # [keys, lines, read counter] of the last read
    check_keys: Any          # placeholder: keys of lines to re-decode
    check_lines: Any         # placeholder: lines to re-decode
    check_decoded: list      # decode_csv of check_lines
    records: list            # record mode: decoded scalars of one read() (the seed's tensors)
    enqueue_inputs: list     # batch mode: placeholders fed with decoded columns
    enqueue: Any
    dequeue: list            # batch mode: the batch tensors users run
    close_queue: Any         # close the batch queue, letting it drain
    queue_size: Any          # [whether the batch queue is closed, items in it]
    cancel_ops: list         # close both queues and cancel blocked enqueues
    init_op: Any             # initializes the pipeline's local variables
    queue_runners: list


def _local_variable(tf, initial, name: str):
    return tf.compat.v1.Variable(
        initial, trainable=False, name=name, validate_shape=False, use_resource=True,
        collections=[tf.compat.v1.GraphKeys.LOCAL_VARIABLES], shape=tf.TensorShape(None))


def _preprocess(tf, keys, lines, strip_bom: bool):
    """Strips a UTF-8 BOM from line 1 of a file (TextLineReader keeps it)."""
    if not strip_bom:
        return lines
    first = tf.strings.regex_full_match(keys, r".*:1")
    return tf.where(first, tf.strings.regex_replace(lines, "^\ufeff", ""), lines)


def _decode(tf, spec: CsvSpec, lines) -> list:
    return list(tf.io.decode_csv(lines, record_defaults=spec.record_defaults(),
                                 **spec.decode_kwargs()))


def _quiet():
    """Silences TF's "Queue-based input pipelines have been replaced" notices: the
    queues are what this module is for."""
    from tf1compat.shared.tf_internals import quiet_deprecations

    return quiet_deprecations()


def build(spec: CsvSpec, files: list[InputFile], graph, *, read_size: int,
          queue_capacity: int, name: Optional[str] = None) -> QueueGraph:
    """Adds the pipeline's ops to `graph` and returns them.

    Args:
      spec: the checked options.
      files: the resolved files, in reading order.
      graph: the `tf.Graph` of the session that will run the pipeline.
      read_size: lines per `read_up_to` in batch mode.
      queue_capacity: batches the FIFO batch queue holds.
      name: name scope of the ops.

    Returns:
      The `QueueGraph`.
    """
    import tensorflow as tf

    strip_bom = spec.header_lines == 0 and any(f.bom for f in files)
    local_before = set(id(v) for v in graph.get_collection(tf.compat.v1.GraphKeys.LOCAL_VARIABLES))
    runners_before = list(graph.get_collection(tf.compat.v1.GraphKeys.QUEUE_RUNNERS))
    with graph.as_default(), tf.compat.v1.name_scope(name or "input_pipeline"), _quiet():
        filename_queue = tf.compat.v1.train.string_input_producer(
            [f.path for f in files], num_epochs=spec.num_epochs, shuffle=spec.files_shuffled,
            seed=spec.seed, capacity=max(32, min(len(files), 1024)), name="filenames")
        reader = tf.compat.v1.TextLineReader(skip_header_lines=spec.header_lines or None)
        read_lines = close_lines = None
        if spec.read == "batch":
            # Reading and decoding overlap: a reader thread fills this queue of
            # raw (keys, lines) reads, the feeder thread decodes them in order.
            line_queue = tf.queue.FIFOQueue(capacity=2, dtypes=[tf.string, tf.string],
                                            name="lines")
            read_lines = line_queue.enqueue(reader.read_up_to(filename_queue, read_size))
            close_lines = line_queue.close()
            keys, lines = line_queue.dequeue()
        else:
            key, line = reader.read(filename_queue)
            keys, lines = tf.reshape(key, [1]), tf.reshape(line, [1])
        stash_keys = _local_variable(tf, tf.constant([], tf.string), "stash_keys")
        stash_lines = _local_variable(tf, tf.constant([], tf.string), "stash_lines")
        reads = tf.compat.v1.Variable(
            tf.constant(0, tf.int64), trainable=False, name="reads", use_resource=True,
            collections=[tf.compat.v1.GraphKeys.LOCAL_VARIABLES])
        assigned = [stash_keys.assign(keys, read_value=False),
                    stash_lines.assign(lines, read_value=False)]
        with tf.control_dependencies(assigned):
            count = reads.assign_add(1)
        with tf.control_dependencies([count]):   # counted before the decode can fail
            stashed_keys = stash_keys.read_value()
            stashed_lines = stash_lines.read_value()
        decoded = _decode(tf, spec, _preprocess(tf, stashed_keys, stashed_lines, strip_bom))
        step = decoded + [count]
        stash = [stash_keys.read_value(), stash_lines.read_value(), reads.read_value()]

        check_keys = tf.compat.v1.placeholder(tf.string, [None], name="check_keys")
        check_lines = tf.compat.v1.placeholder(tf.string, [None], name="check_lines")
        check_decoded = _decode(tf, spec, _preprocess(tf, check_keys, check_lines, strip_bom))

        records = [tf.reshape(c, []) for c in decoded] if spec.read == "record" else []
        dtypes = spec.tf_dtypes()
        enqueue_inputs = [tf.compat.v1.placeholder(d, [None], name=f"rows_{i}")
                          for i, d in enumerate(dtypes)]
        enqueue = dequeue = close_queue = queue_size = None
        cancel_ops = [filename_queue.close(cancel_pending_enqueues=True)]
        if spec.read == "batch":
            cancel_ops.append(line_queue.close(cancel_pending_enqueues=True))
            batch = spec.batch_size
            if spec.shuffle:
                queue = tf.queue.RandomShuffleQueue(
                    capacity=spec.shuffle_buffer + 2 * max(batch, read_size),
                    min_after_dequeue=spec.shuffle_buffer, dtypes=dtypes,
                    shapes=[[]] * len(dtypes), seed=spec.seed, name="shuffled_rows")
                enqueue = queue.enqueue_many(enqueue_inputs)
                dequeue = queue.dequeue_many(batch) if spec.drop_remainder else \
                    queue.dequeue_up_to(batch)
            else:
                queue = tf.queue.FIFOQueue(capacity=queue_capacity, dtypes=dtypes, name="batches")
                enqueue = queue.enqueue(enqueue_inputs)
                dequeue = queue.dequeue()
            dequeue = list(dequeue) if isinstance(dequeue, (list, tuple)) else [dequeue]
            for tensor in dequeue:
                tensor.set_shape([batch] if spec.drop_remainder else [None])
            close_queue = queue.close()
            queue_size = [queue.is_closed(), queue.size()]
            cancel_ops.append(queue.close(cancel_pending_enqueues=True))
        local_vars = [v for v in graph.get_collection(tf.compat.v1.GraphKeys.LOCAL_VARIABLES)
                      if id(v) not in local_before]
        init_op = tf.compat.v1.variables_initializer(local_vars, name="init")
    # The pipeline starts and stops its own runners; a later
    # tf.compat.v1.train.start_queue_runners() must not start them a second time.
    runners = graph.get_collection_ref(tf.compat.v1.GraphKeys.QUEUE_RUNNERS)
    ours = [r for r in runners if r not in runners_before]
    for runner in ours:
        runners.remove(runner)
    return QueueGraph(read_lines=read_lines, close_lines=close_lines, step=step, stash=stash, check_keys=check_keys, check_lines=check_lines,
                      check_decoded=check_decoded, records=records, enqueue_inputs=enqueue_inputs,
                      enqueue=enqueue, dequeue=dequeue, close_queue=close_queue, queue_size=queue_size,
                      cancel_ops=cancel_ops, init_op=init_op, queue_runners=ours)
