"""The pipeline implementations the shared suite runs against, behind one interface.

Each side opens a pipeline as a context manager that yields an object with
`__iter__` (numpy batches) and `bad_rows`; the TF1 sides make a fresh graph and
session for every pipeline, as `tf1compat.session()` does.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np


class Side:
    name = ""

    @contextlib.contextmanager
    def open(self, files: Any, record_defaults: Any, **options: Any) -> Iterator[Any]:
        raise NotImplementedError

    def read(self, files: Any, record_defaults: Any, **options: Any) -> list:
        """All batches, and the pipeline (for its bad_rows) as (batches, pipeline)."""
        with self.open(files, record_defaults, **options) as pipe:
            return [batch for batch in pipe], pipe

    def rows(self, files: Any, record_defaults: Any, **options: Any) -> list:
        """All rows as tuples of Python values (bytes for strings)."""
        batches, _ = self.read(files, record_defaults, **options)
        return rows_of(batches)


def rows_of(batches: list) -> list:
    out = []
    for batch in batches:
        columns = list(batch.values()) if isinstance(batch, dict) else list(batch)
        out.extend(zip(*[c.tolist() for c in columns]))
    return out


def batch_sizes(batches: list) -> list:
    return [len(next(iter(b.values())) if isinstance(b, dict) else b[0]) for b in batches]


class Tf1Side(Side):
    def __init__(self, read: str):
        self.read_mode = read
        self.name = f"tf1-{read}"

    @contextlib.contextmanager
    def open(self, files, record_defaults, **options):
        import tensorflow as tf

        from tf1compat.input_pipeline import input_pipeline
        options.pop("chunk_bytes", None)
        graph = tf.Graph()
        with graph.as_default():
            session = tf.compat.v1.Session(graph=graph)
            try:
                pipe = input_pipeline(files, record_defaults, session=session,
                                      read=options.pop("read", self.read_mode), **options)
                with pipe:
                    yield pipe
            finally:
                session.close()


class ModernSide(Side):
    def __init__(self, read: str, engine: str):
        self.read_mode = read
        self.engine = engine
        self.name = f"modern-{read}-{engine}"

    @contextlib.contextmanager
    def open(self, files, record_defaults, **options):
        from modern.input_pipeline import input_pipeline
        options.setdefault("chunk_bytes", 64)   # many small byte ranges: boundaries get tested
        pipe = input_pipeline(files, record_defaults, engine=self.engine,
                              read=options.pop("read", self.read_mode), **options)
        with pipe:
            yield pipe


SIDES = {side.name: side for side in (
    Tf1Side("batch"), Tf1Side("record"),
    ModernSide("batch", "tf"), ModernSide("batch", "arrow"), ModernSide("record", "tf"))}


def as_arrays(rows: list) -> list:
    return [np.array(c) for c in zip(*rows)] if rows else []
