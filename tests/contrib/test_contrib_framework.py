"""contrib.framework variable helpers and slim's prefetch_queue, in graph mode."""

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib import framework, slim

v1 = tf.compat.v1


def make_variables():
    with v1.variable_scope("net"):
        framework.model_variable("weights", [2])
        framework.variable("counter", [], dtype=tf.int32, trainable=False)
        with v1.variable_scope("head"):
            framework.model_variable("weights", [1])
    with v1.variable_scope("other"):
        v1.get_variable("weights", [3])
    return framework.local_variable(0.0, name="seen")


def names(variables):
    return [v.op.name for v in variables]


def test_get_variables_by_scope_suffix_and_collection(graph):
    local = make_variables()
    assert names(framework.get_variables("net")) == ["net/weights", "net/counter",
                                                     "net/head/weights"]
    assert names(framework.get_variables(suffix="weights")) == [
        "net/weights", "net/head/weights", "other/weights"]
    assert names(framework.get_model_variables()) == ["net/weights", "net/head/weights"]
    assert names(framework.get_trainable_variables("net")) == ["net/weights", "net/head/weights"]
    assert framework.get_local_variables() == [local]
    assert names(framework.get_variables_by_name("weights", scope="net/head")) == [
        "net/head/weights"]
    assert framework.get_unique_variable("net/counter").op.name == "net/counter"
    with pytest.raises(ValueError, match="Couldn't find"):
        framework.get_unique_variable("net/nothing")


def test_variables_to_restore_include_exclude(graph):
    make_variables()
    assert names(framework.get_variables_to_restore(exclude=["net/head"])) == [
        "net/weights", "net/counter", "other/weights"]
    assert names(framework.get_variables_to_restore(include=["other", "net/head"])) == [
        "other/weights", "net/head/weights"]
    with pytest.raises(TypeError, match="not a list or a tuple"):
        framework.get_variables_to_restore(include="net")


def test_model_variable_honours_arg_scope_and_device(graph):
    with framework.arg_scope([framework.model_variable], device="/cpu:0",
                             initializer=v1.ones_initializer()):
        var = framework.model_variable("w", [2])
    assert var.device.endswith("CPU:0") or var.device == "/cpu:0"
    graph.run(v1.global_variables_initializer())
    np.testing.assert_array_equal(graph.run(var), [1.0, 1.0])


def test_assign_from_checkpoint_fn(graph, tmp_path):
    a = v1.get_variable("a", initializer=3.0)
    b = v1.get_variable("b", initializer=4.0)
    graph.run(v1.global_variables_initializer())
    path = v1.train.Saver([a]).save(graph, str(tmp_path / "ckpt"))
    graph.run([a.assign(0.0), b.assign(0.0)])
    with pytest.raises(ValueError, match="empty"):
        framework.assign_from_checkpoint_fn(path, [])
    restore = framework.assign_from_checkpoint_fn(path, [a, b], ignore_missing_vars=True)
    restore(graph)
    assert graph.run([a, b]) == [3.0, 0.0]
    assert framework.assign_from_checkpoint_fn(path, [b], ignore_missing_vars=True) is None


def test_prefetch_queue_serves_batches_through_a_queue_runner(graph):
    data = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    queue = slim.prefetch_queue.prefetch_queue({"x": data, "n": tf.constant(7)}, capacity=4,
                                               num_threads=2)
    runners = v1.get_collection(v1.GraphKeys.QUEUE_RUNNERS)
    assert len(runners) == 1 and len(runners[0].enqueue_ops) == 2
    assert any("fraction_of_4_full" in s.name for s in v1.get_collection(
        v1.GraphKeys.SUMMARIES))
    item = queue.dequeue()
    coord = v1.train.Coordinator()
    threads = v1.train.start_queue_runners(graph, coord=coord)
    value = graph.run(item)
    coord.request_stop()
    graph.run(queue.close(cancel_pending_enqueues=True))
    coord.join(threads)
    assert value["n"] == 7 and value["x"].tolist() == [[0, 1], [2, 3], [4, 5]]
