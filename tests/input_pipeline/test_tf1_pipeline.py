"""What only the TF1 queue pipeline has: threads, sessions, graphs, raw tensors."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.shared.errors import BadRowError, InputPipelineError
from tf1compat.input_pipeline import input_pipeline

from .suite import INTS, csv_text, int_rows


@pytest.fixture
def graph_session():
    graph = tf.Graph()
    with graph.as_default():
        session = tf.compat.v1.Session(graph=graph)
        try:
            yield graph, session
        finally:
            session.close()


class Boom(Exception):
    pass


def _cycle(kind: str, path: str, bad: str) -> None:
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.Session(graph=graph) as session:
        if kind == "full":
            with input_pipeline(path, INTS, batch_size=7, session=session) as pipe:
                assert sum(len(b[0]) for b in pipe) == 200
        elif kind == "early":  # the feeder is blocked on a full queue when we leave
            with input_pipeline(path, INTS, batch_size=1, num_epochs=None, queue_capacity=2,
                                session=session) as pipe:
                next(iter(pipe))
        elif kind == "exception":
            with pytest.raises(Boom):
                with input_pipeline(path, INTS, batch_size=3, shuffle=True, seed=1,
                                    shuffle_buffer=20, session=session):
                    raise Boom()
        elif kind == "bad-row":
            with pytest.raises(BadRowError):
                with input_pipeline(bad, INTS, batch_size=3, session=session) as pipe:
                    list(pipe)
        else:  # one record per run, and a generator abandoned half way
            pipe = input_pipeline(path, INTS, batch_size=4, read="record", session=session)
            batches = iter(pipe)
            next(batches)
            batches.close()
            assert not pipe.running


def test_no_thread_left_after_100_open_close_cycles(tmp_path):
    path = str(tmp_path / "a.csv")
    bad = str(tmp_path / "bad.csv")
    (tmp_path / "a.csv").write_text(csv_text(int_rows(200)))
    (tmp_path / "bad.csv").write_text(csv_text(int_rows(10)) + "1,x,3\n" + csv_text(int_rows(10)))
    before = set(threading.enumerate())
    kinds = ["full", "early", "exception", "bad-row", "record"]
    for index in range(100):
        _cycle(kinds[index % len(kinds)], path, bad)
    left = [t for t in threading.enumerate() if t not in before]
    assert left == []


def test_raw_tensors_in_a_tf1_loop(tmp_path, graph_session):
    graph, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(10)))
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, batch_size=4, session=session,
                          column_names=["a", "b", "c"])
    total = tf.reduce_sum(pipe.tensors["a"])  # the user's graph built on the batch tensors
    sums = []
    with pipe:
        while True:
            try:
                sums.append(int(session.run(total)))
            except tf.errors.OutOfRangeError:
                break
    assert sums == [0 + 1 + 2 + 3, 4 + 5 + 6 + 7, 8 + 9]
    assert pipe.tensors["a"].shape.as_list() == [None]


def test_raw_loop_gets_the_bad_row_when_leaving(tmp_path, graph_session):
    _, session = graph_session
    path = tmp_path / "bad.csv"
    path.write_text("1,2,3\n4,5\n")
    pipe = input_pipeline(str(path), INTS, session=session)
    with pytest.raises(BadRowError, match=r"bad\.csv:2: Expect 3 fields but have 2"):
        with pipe:
            assert session.run(pipe.tensors)[0].tolist() == [1]   # the rows before it
            with pytest.raises(tf.errors.OutOfRangeError):
                session.run(pipe.tensors)


def test_leaving_early_does_not_raise_for_rows_never_read(tmp_path, graph_session):
    _, session = graph_session
    path = tmp_path / "bad.csv"
    path.write_text(csv_text(int_rows(50)) + "1,2\n")
    with input_pipeline(str(path), INTS, batch_size=5, session=session) as pipe:
        first = session.run(pipe.tensors)
    assert first[0].tolist() == [0, 1, 2, 3, 4]


def test_default_graph_and_session(tmp_path):
    (tmp_path / "a.csv").write_text(csv_text(int_rows(5)))
    graph = tf.Graph()
    with graph.as_default():
        pipe = input_pipeline(str(tmp_path / "a.csv"), INTS)   # built before the session
        session = tf.compat.v1.Session(graph=graph)
        with session.as_default(), pipe:
            assert [len(b[0]) for b in pipe] == [5]
        session.close()


def test_graph_finalized_before_start(tmp_path, graph_session):
    graph, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(5)))
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, session=session, on_bad_row="skip")
    graph.finalize()
    with pipe:
        assert sum(len(b[0]) for b in pipe) == 5


def test_runners_are_not_left_in_the_graph_collection(tmp_path, graph_session):
    graph, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(5)))
    input_pipeline(str(tmp_path / "a.csv"), INTS, session=session)
    assert graph.get_collection(tf.compat.v1.GraphKeys.QUEUE_RUNNERS) == []


def test_record_mode_runs_one_line_per_session_run(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(6)))
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, read="record", batch_size=4,
                          session=session)
    assert [t.shape.as_list() for t in pipe.tensors] == [[], [], []]
    runs = []
    original = session.run

    def counting_run(fetches, *args, **kwargs):
        runs.append(fetches)
        return original(fetches, *args, **kwargs)
    session.run = counting_run
    with pipe:
        batches = list(pipe)
    assert [len(b[0]) for b in batches] == [4, 2]
    assert sum(1 for f in runs if isinstance(f, list) and len(f) == 4) == 7  # 6 rows + OutOfRange


def test_errors_without_a_usable_session(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("1,2,3\n")
    with pytest.raises(InputPipelineError, match="session"):
        input_pipeline(str(path), INTS)          # eager, no graph
    graph, other = tf.Graph(), tf.Graph()
    with other.as_default():
        session = tf.compat.v1.Session(graph=other)
    with graph.as_default():
        pipe = input_pipeline(str(path), INTS)
    with pytest.raises(InputPipelineError, match="another graph"):
        pipe.start(session)
    with pytest.raises(InputPipelineError, match="no session"):
        pipe.start()
    session.close()


def test_closed_pipeline_cannot_restart(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "a.csv").write_text("1,2,3\n")
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, session=session)
    with pipe:
        pass
    pipe.close()
    with pytest.raises(InputPipelineError, match="closed"):
        pipe.start()


def test_shuffled_batches_keep_their_size(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(100)))
    with input_pipeline(str(tmp_path / "a.csv"), INTS, batch_size=16, shuffle=True, seed=3,
                        shuffle_buffer=30, drop_remainder=True, session=session) as pipe:
        batches = list(pipe)
    assert [len(b[0]) for b in batches] == [16] * 6
    assert len(set(np.concatenate([b[0] for b in batches]).tolist())) == 96


def test_file_gone_after_construction_is_our_error(tmp_path, graph_session):
    _, session = graph_session
    path = tmp_path / "gone.csv"
    path.write_text("1,2,3\n")
    pipe = input_pipeline(str(path), INTS, session=session)
    path.unlink()
    with pytest.raises(InputPipelineError, match=r"reading CSV failed: .*gone\.csv"):
        with pipe:
            list(pipe)


# -- start_queue_runners: what `tf1compat migrate` writes for a TF1 Coordinator loop ------
def _coordinator_loop(session, pipe, coord, stop_after=None):
    """The TF1 script's loop: read until OutOfRange or should_stop, request_stop, join."""
    threads = pipe.start_queue_runners(sess=session, coord=coord)
    batches = []
    try:
        while not coord.should_stop():
            batches.append(session.run(pipe.tensors)[0].tolist())
            if stop_after is not None and len(batches) == stop_after:
                break
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
    coord.join(threads, stop_grace_period_secs=10)
    return batches


def test_start_queue_runners_serves_the_scripts_coordinator(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(10)))
    before = set(threading.enumerate())
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, batch_size=4, session=session)
    batches = _coordinator_loop(session, pipe, tf.compat.v1.train.Coordinator())
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert not pipe.running   # closed once the Coordinator stopped, its threads joined
    assert [t for t in threading.enumerate() if t not in before] == []
    with pytest.raises(InputPipelineError, match="closed already"):
        pipe.start_queue_runners(sess=session, coord=tf.compat.v1.train.Coordinator())


def test_request_stop_closes_an_endless_pipeline(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "a.csv").write_text(csv_text(int_rows(10)))
    before = set(threading.enumerate())
    pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, batch_size=4, num_epochs=None,
                          session=session)
    batches = _coordinator_loop(session, pipe, tf.compat.v1.train.Coordinator(), stop_after=3)
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1]]
    assert not pipe.running and [t for t in threading.enumerate() if t not in before] == []


def test_a_bad_row_is_reported_to_the_coordinator(tmp_path, graph_session):
    _, session = graph_session
    (tmp_path / "bad.csv").write_text(csv_text(int_rows(6)) + "1,x,3\n" + csv_text(int_rows(6)))
    coord = tf.compat.v1.train.Coordinator()
    pipe = input_pipeline(str(tmp_path / "bad.csv"), INTS, batch_size=4, session=session)
    with pytest.raises(BadRowError, match=r"bad\.csv:7"):   # raised by coord.join, as in TF1
        _coordinator_loop(session, pipe, coord)
    assert coord.should_stop() and not pipe.running


def test_the_graphs_other_queue_runners_start_too(tmp_path):
    (tmp_path / "a.csv").write_text(csv_text(int_rows(3)))
    graph = tf.Graph()
    config = tf.compat.v1.ConfigProto(operation_timeout_in_ms=20000)  # not started: no hang
    with graph.as_default(), tf.compat.v1.Session(graph=graph, config=config) as session:
        index = tf.compat.v1.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue()
        pipe = input_pipeline(str(tmp_path / "a.csv"), INTS, session=session)
        session.run(tf.compat.v1.local_variables_initializer())
        coord = tf.compat.v1.train.Coordinator()
        with pytest.raises(InputPipelineError, match="needs coord="):
            pipe.start_queue_runners(sess=session)
        threads = pipe.start_queue_runners(sess=session, coord=coord)
        assert len(threads) > 1
        assert [int(session.run(index)) for _ in range(3)] == [0, 1, 2]
        assert session.run(pipe.tensors)[0].tolist() == [0, 1, 2]
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
    assert not pipe.running
