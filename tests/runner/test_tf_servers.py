"""`tf.X` under run: one ordered list of servers, and one usage record the report reads."""

import threading

import pytest
import tensorflow as tf

from tf1compat.runner import served, tf_servers
from tf1compat.runner.shim import TF1Module
from tf1compat.runner.usage import usage


@pytest.fixture
def tf1():
    return TF1Module(tf.compat.v1, "", legacy_keras=True)


def test_the_servers_are_asked_in_the_documented_order():
    names = [server.__name__ for server in tf_servers.SERVERS]
    assert names == ["compat_v1", "own_modules", "run_overrides", "served_namespaces", "tf0",
                     "tf115", "contrib_spellings", "tf115_keras", "native", "served_modules",
                     "contrib_aliases"]
    documented = tf_servers.__doc__
    # the module's docstring lists them in this order too
    positions = [documented.index(word) for word in (
        "`compat.v1`", "TensorFlow's own modules", "overrides", "namespaces already served",
        "TF 0.x calls", "TF 1.15's calls", "contrib name", "TF 1.15's Keras 2", "native",
        "served modules", "contrib aliases")]
    assert positions == sorted(positions)


def test_an_override_wins_over_the_native_name_and_is_reported_as_its_symbol(tf1, monkeypatch):
    def listing():
        return ["/cpu:0"]

    symbol = served.Symbol(served.Served.REPLACED, "test.listing", "a test's listing")
    monkeypatch.setitem(tf_servers.overrides, "test.is_gpu_available", (listing, symbol))
    monkeypatch.setitem(tf_servers.overrides, "reduce_sum", (listing, symbol))
    assert tf1.reduce_sum is listing  # TF 2.21 has it: the override still answers first
    assert usage.symbols["reduce_sum"].target == "test.listing"
    assert usage.symbols["reduce_sum"] is not symbol  # the report's copy, not the table's


def test_each_answer_says_how_it_was_served(tf1):
    assert tf_servers.answer(tf_servers.Request(tf1, "v1", "compat.v1")).how is \
        tf_servers.How.ITSELF
    found = tf_servers.answer(tf_servers.Request(tf1, "reduce_sum", "reduce_sum"))
    assert found.how is tf_servers.How.FOUND and found.value is tf.compat.v1.reduce_sum
    request = tf_servers.Request(tf1, "no_such_name_in_tf", "no_such_name_in_tf")
    assert tf_servers.answer(request) is None
    assert isinstance(request.error, AttributeError)  # native's, for the error the view raises


def test_a_name_no_server_has_raises_and_is_recorded_as_unsupported(tf1):
    with pytest.raises(AttributeError, match="no_such_name_in_tf"):
        tf1.no_such_name_in_tf
    assert usage.symbols["no_such_name_in_tf"].status is served.Served.UNSUPPORTED
    assert "no_such_name_in_tf" in usage.missing


def test_reads_from_many_threads_are_all_counted(tf1):
    before = usage.used["reduce_prod"]
    uses_before = usage.symbols["reduce_prod"].uses if "reduce_prod" in usage.symbols else 0

    def read():
        for _ in range(2000):
            tf1.reduce_prod

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert usage.used["reduce_prod"] - before == 16000
    assert usage.symbols["reduce_prod"].uses - uses_before == 16000
