"""tf1compat.session: a real TF1 session with ConfigProto options, on TF 2.21."""

import warnings

import pytest
import tensorflow as tf

import tf1compat
from tf1compat import DeviceError, GpuOptionsIgnoredWarning, placement
from tf1compat.compat_session import process_gpu_options


@pytest.fixture(autouse=True)
def fresh_gpu_option_record():
    process_gpu_options.reset()
    yield
    process_gpu_options.reset()


def test_session_runs_graph_mode_on_its_own_graph_and_restores_eager():
    assert tf.executing_eagerly()
    outer_default = tf.compat.v1.get_default_graph()
    with tf1compat.session() as sess:
        assert not tf.executing_eagerly()
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        doubled = x * 2.0
        assert doubled.graph is sess.graph
        assert tf.compat.v1.get_default_graph() is sess.graph
        assert tf.compat.v1.get_default_session() is sess
        assert sess.run(doubled, {x: [1.0, 2.5]}).tolist() == [2.0, 5.0]
        assert doubled.eval({x: [3.0]}).tolist() == [6.0]
    assert tf.executing_eagerly()
    assert tf.compat.v1.get_default_graph() is outer_default
    assert sess._closed


def test_session_uses_a_graph_the_caller_passes():
    graph = tf.Graph()
    with graph.as_default():
        constant = tf.constant(7, name="seven")
    with tf1compat.session(graph=graph) as sess:
        assert sess.graph is graph
        assert sess.run(constant) == 7


def test_session_is_closed_when_the_block_raises():
    with pytest.raises(ZeroDivisionError):
        with tf1compat.session() as sess:
            1 / 0
    assert sess._closed
    assert tf.executing_eagerly()


def test_session_accepts_a_config_proto():
    proto = tf.compat.v1.ConfigProto(device_count={"CPU": 3})
    with tf1compat.session(proto) as sess:
        assert len([d for d in sess.list_devices() if d.device_type == "CPU"]) == 3


@pytest.mark.parametrize("count", [1, 2, 4])
def test_cpu_device_count_gives_n_devices_and_ops_run_where_asked(count):
    with tf1compat.session(cpus=count) as sess:
        names = [d.name for d in sess.list_devices() if d.device_type == "CPU"]
        assert len(names) == count
        x = tf.compat.v1.placeholder(tf.float32, [2, 2], name="x")
        products = []
        for index in range(count):
            with tf.device(f"/cpu:{index}"):
                products.append(tf.matmul(x, x, name=f"product_{index}"))
        with tf.device("/cpu:0"):
            total = tf.add_n(products, name="total")
        value, where = placement.run(sess, total, {x: [[1, 2], [3, 4]]})
    assert value.tolist() == [[7 * count, 10 * count], [15 * count, 22 * count]]
    for index in range(count):
        assert where.device_of(f"product_{index}") == f"CPU:{index}"
    assert where.device_of("total") == "CPU:0"
    assert where.devices() == [f"CPU:{i}" for i in range(count)]


def test_missing_gpu_without_soft_placement_is_our_clear_error():
    with tf1compat.session() as sess:
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        with tf.device("/gpu:0"):
            y = tf.multiply(x, 2.0, name="on_gpu")
        with pytest.raises(DeviceError) as caught:
            sess.run(y, {x: 1.0})
    message = str(caught.value)
    assert "'on_gpu'" in message and "GPU:0" in message
    assert "CPU:0" in message and "soft_placement=True" in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_missing_gpu_with_soft_placement_runs_on_cpu():
    with tf1compat.session(soft_placement=True, cpus=2) as sess:
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        with tf.device("/gpu:1"):
            y = tf.multiply(x, 2.0, name="wanted_gpu")
        value, where = placement.run(sess, y, {x: 4.0})
    assert value == 8.0
    assert where.device_of("wanted_gpu").startswith("CPU:")


def test_other_errors_pass_through_unchanged():
    with tf1compat.session() as sess:
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        with pytest.raises(tf.errors.InvalidArgumentError, match="reshape"):
            sess.run(tf.reshape(x, [3]), {x: [1.0, 2.0]})


def test_config_proto_function():
    proto = tf1compat.config_proto(growth=True, memory_fraction=0.5, log_placement=True)
    assert isinstance(proto, tf.compat.v1.ConfigProto)
    assert proto.gpu_options.allow_growth and proto.log_device_placement
    assert proto.gpu_options.per_process_gpu_memory_fraction == 0.5


def test_later_session_with_other_gpu_options_warns_naming_both_values():
    with tf1compat.session(growth=True):
        pass
    with pytest.warns(GpuOptionsIgnoredWarning) as caught:
        with tf1compat.session(growth=False, memory_fraction=0.3):
            pass
    messages = [str(w.message) for w in caught]
    assert any("growth=False" in m and "growth=True" in m for m in messages)
    assert any("memory_fraction=0.3" in m and "memory_fraction=None" in m for m in messages)


def test_same_or_unset_gpu_options_do_not_warn():
    with tf1compat.session(growth=True, visible_gpus="0"):
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("error", GpuOptionsIgnoredWarning)
        with tf1compat.session(growth=True, visible_gpus=[0]):
            pass
        with tf1compat.session(cpus=2):
            pass


def test_unset_first_session_counts_as_tensorflow_defaults():
    with tf1compat.session():
        pass
    with pytest.warns(GpuOptionsIgnoredWarning, match="TensorFlow's default"):
        with tf1compat.session(growth=True):
            pass


def test_bad_keyword_fails_before_any_session_exists():
    with pytest.raises(tf1compat.OptionError, match="did you mean 'growth'"):
        with tf1compat.session(grouth=True):
            pass
    assert tf.executing_eagerly()


def test_config_proto_fields_without_keyword_still_reach_the_session():
    proto = tf.compat.v1.ConfigProto(device_count={"CPU": 2}, operation_timeout_in_ms=1234)
    proto.gpu_options.allocator_type = "BFC"
    with tf1compat.session(proto, soft_placement=True) as sess:
        assert len(sess.list_devices()) == 2
        assert sess._config.operation_timeout_in_ms == 1234
        assert sess._config.gpu_options.allocator_type == "BFC"
        assert sess._config.allow_soft_placement


# --- the session object without `with` (TF1's `sess = tf.Session(config=...)`) ---------------


def test_bad_option_is_reported_at_the_call_without_entering_a_block():
    with pytest.raises(tf1compat.OptionError) as caught:
        tf1compat.session(memory_fraction=2)
    message = str(caught.value)
    assert "memory_fraction" in message and "2" in message
    assert tf.executing_eagerly()


def test_session_without_with_runs_ops_built_after_it_until_closed():
    outer_default = tf.compat.v1.get_default_graph()
    sess = tf1compat.session(cpus=2)
    assert isinstance(sess, tf.compat.v1.Session)
    assert not tf.executing_eagerly()
    x = tf.constant(3.0)
    doubled = x * 2.0
    assert doubled.graph is sess.graph
    assert tf.compat.v1.get_default_session() is sess
    assert sess.run(doubled) == 6.0
    assert doubled.eval() == 6.0
    assert len([d for d in sess.list_devices() if d.device_type == "CPU"]) == 2
    sess.close()
    assert sess._closed
    assert tf.executing_eagerly()
    assert tf.compat.v1.get_default_graph() is outer_default
    assert tf.compat.v1.get_default_session() is None
    sess.close()  # a second close changes nothing
    assert tf.executing_eagerly()


def test_session_object_entered_later_with_with_is_closed_at_block_end():
    sess = tf1compat.session()
    with sess as entered:
        assert entered is sess
        assert int(sess.run(tf.constant(4) + 1)) == 5
    assert sess._closed
    assert tf.executing_eagerly()


def test_sessions_closed_out_of_order_keep_the_later_one_default():
    first = tf1compat.session()
    second = tf1compat.session()
    first.close()
    assert first._closed
    assert tf.compat.v1.get_default_session() is second
    assert tf.compat.v1.get_default_graph() is second.graph
    assert int(second.run(tf.constant(2) * 3)) == 6
    second.close()
    assert tf.executing_eagerly()
    assert tf.compat.v1.get_default_session() is None


def test_with_block_inside_an_open_session_gives_it_back_at_block_end():
    outer = tf1compat.session()
    with tf1compat.session() as inner:
        assert tf.compat.v1.get_default_graph() is inner.graph
    assert tf.compat.v1.get_default_session() is outer
    assert tf.compat.v1.get_default_graph() is outer.graph
    assert int(outer.run(tf.constant(1) + 1)) == 2
    outer.close()
    assert tf.executing_eagerly()


def test_session_closed_by_an_exception_in_with_leaves_an_open_one_default():
    outer = tf1compat.session()
    with pytest.raises(ZeroDivisionError):
        with tf1compat.session() as inner:
            1 / 0
    assert inner._closed
    assert tf.compat.v1.get_default_session() is outer
    outer.close()
    assert tf.executing_eagerly()


def test_bad_config_proto_option_is_reported_at_the_call():
    proto = tf.compat.v1.ConfigProto()
    proto.gpu_options.per_process_gpu_memory_fraction = 1.5
    with pytest.raises(tf1compat.OptionError, match="memory_fraction"):
        tf1compat.session(proto)
