"""Batches from the seed's record mode: one `reader.read()` and one decode per `sess.run`.

The rows of each step are gathered here into numpy batches of `spec.batch_size`,
mixed through a seeded pool of `spec.shuffle_buffer` rows when `spec.shuffle`,
as the batch mode's RandomShuffleQueue mixes them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from tf1compat.shared.errors import BadRowError


def stack(spec: Any, rows: list) -> list:
    """Rows (tuples) -> one numpy array per column, of the column's dtype."""
    import numpy as np

    return [np.array([row[i] for row in rows], dtype=column.numpy_dtype)
            for i, column in enumerate(spec.columns)]


def record_batches(spec: Any, next_block: Callable[[], Optional[list]]) -> Iterator[list]:
    """Batches of columns from `next_block()` (columns of some rows; None at the end).

    A `BadRowError` from `next_block` is raised after the rows before it are yielded.
    """
    import numpy as np

    rows: list = []
    pool: list = []
    rng = np.random.default_rng(spec.seed)
    failure = None
    while True:
        try:
            block = next_block()
        except BadRowError as error:   # first yield the rows before it
            failure = error
            break
        if block is None:
            break
        for row in zip(*block):
            if not spec.shuffle:
                rows.append(row)
                continue
            pool.append(row)
            if len(pool) > spec.shuffle_buffer:
                pick = int(rng.integers(len(pool)))
                pool[pick], pool[-1] = pool[-1], pool[pick]
                rows.append(pool.pop())
        while len(rows) >= spec.batch_size:
            yield stack(spec, rows[:spec.batch_size])
            del rows[:spec.batch_size]
    rng.shuffle(pool)
    rows.extend(pool)
    while rows and (len(rows) >= spec.batch_size or not spec.drop_remainder):
        yield stack(spec, rows[:spec.batch_size])
        del rows[:spec.batch_size]
    if failure is not None:
        raise failure
