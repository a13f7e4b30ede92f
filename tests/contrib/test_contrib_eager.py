"""contrib.eager as tf1compat serves it: the table, the refused names, `run` switching to eager."""

import textwrap

import pytest

from isolated import run_cli


def test_the_table_serves_the_eager_names_and_refuses_the_rest():
    from tf1compat.contrib import registry

    for name in ("Variable", "Iterator", "implicit_gradients", "enable_eager_execution",
                 "Network", "metrics.Mean", "run_test_in_graph_and_eager_modes"):
        entry = registry.lookup(f"eager.{name}")
        assert entry is not None and entry.served is registry.Served.REPLACED, name
    for name, says in (("Saver", "Checkpoint"), ("seterr", "enable_check_numerics"),
                       ("save_network_checkpoint", r"Checkpoint\(model=network\)")):
        with pytest.raises(registry.ContribError, match=says):
            registry.resolve(f"eager.{name}")
    with pytest.raises(registry.ContribError, match="tf.contrib.eager.nosuch"):
        registry.resolve("eager.nosuch")


def test_deep_paths_resolve_to_the_served_names():
    from tensorflow.python.ops.resource_variable_ops import ResourceVariable

    from tf1compat.contrib import paths
    from tf1compat.contrib.eager import metrics
    from tf1compat.contrib.eager.python.metrics import Mean
    from tf1compat.contrib.eager.python.tfe import Variable

    assert paths.public_name("eager.python.tfe.metrics.Mean") == "eager.metrics.Mean"
    assert paths.public_name("eager.python.datasets.Iterator") == "eager.Iterator"
    assert Variable is ResourceVariable
    assert Mean is metrics.Mean


SCRIPT = """
import tensorflow as tf
import tensorflow.contrib.eager as tfe

print("before", tf.executing_eagerly())
tfe.enable_eager_execution()
print("after", tf.executing_eagerly())
v = tfe.Variable([1.0, 2.0])
print("value", (v * 2).numpy().tolist())
tfe.Saver([v])
"""


def test_run_switches_a_script_to_eager_and_names_what_it_does_not_serve(tmp_path):
    script = tmp_path / "eager_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    result = run_cli("run", str(script))
    assert result.returncode == 1, result.stderr[-2000:]
    assert "before False\nafter True\nvalue [2.0, 4.0]\n" in result.stdout
    assert "tf.contrib.eager.Saver is not available on TF 2.21" in result.stderr
    assert "tf.compat.v1.train.Checkpoint" in result.stderr
    # eager code is TF2 code already: the report lists the served names as replaced, not as
    # graph-mode code with no TF2 path (only the refused Saver is listed there, with its fix)
    assert "replaced: tf.contrib.eager.Variable -> tf1compat.contrib.eager.Variable" in \
        result.stderr
    assert "(graph-mode code)" not in result.stderr
    assert "    tf.contrib.eager.Saver: tf.contrib.eager.Saver is not available" in result.stderr
