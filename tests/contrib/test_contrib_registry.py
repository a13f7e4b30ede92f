"""The one contrib table: TensorFlow's own mappings, ours on top, and errors that name the fix."""

import importlib
import types

import pytest

import tf1compat.contrib as contrib
from tf1compat.contrib import registry, tables
from tf1compat.contrib.registry import ContribError, Served


def test_tensorflows_upgrade_table_is_the_source_of_its_mappings():
    from tensorflow.tools.compatibility import all_renames_v2

    renames = all_renames_v2.manual_symbol_renames
    entry = registry.lookup("framework.nest.flatten")
    assert entry.served is Served.MAPPED and entry.source == "tf_upgrade_v2"
    assert entry.target == renames["tf.contrib.framework.nest.flatten"] == "tf.nest.flatten"
    assert registry.lookup("data.CsvDataset").target == "tf.data.experimental.CsvDataset"
    # where that table points at Keras-3-less homes, ours says where TF 2.21 serves it
    cell = registry.lookup("rnn.BasicLSTMCell")
    assert cell.source == "tf1compat" and cell.target == "tf.compat.v1.nn.rnn_cell.BasicLSTMCell"
    assert "legacy Keras" in cell.note


def test_the_table_covers_the_common_contrib_names():
    expected = {
        "layers.flatten": Served.REPLACED, "layers.fully_connected": Served.REPLACED,
        "layers.conv2d": Served.REPLACED, "layers.batch_norm": Served.REPLACED,
        "layers.l2_regularizer": Served.REPLACED, "layers.xavier_initializer": Served.REPLACED,
        "rnn.LSTMCell": Served.MAPPED, "rnn.MultiRNNCell": Served.MAPPED,
        "rnn.DropoutWrapper": Served.MAPPED, "rnn.static_rnn": Served.MAPPED,
        "rnn.LSTMBlockCell": Served.REPLACED, "seq2seq.sequence_loss": Served.REPLACED,
        "slim.prefetch_queue.prefetch_queue": Served.REPLACED, "slim.conv2d": Served.REPLACED,
        "slim.arg_scope": Served.REPLACED, "framework.get_or_create_global_step": Served.MAPPED,
        "framework.arg_scope": Served.REPLACED, "framework.get_variables_to_restore":
            Served.REPLACED, "cudnn_rnn.CudnnCompatibleLSTMCell": Served.REPLACED,
        "cudnn_rnn.CudnnCompatibleGRUCell": Served.REPLACED,
        "cudnn_rnn.CudnnLSTM": Served.UNSUPPORTED, "layers.layer_norm": Served.REPLACED,
        "image.rotate": Served.REPLACED, "image.dense_image_warp": Served.MAPPED,
        "rnn.LayerNormBasicLSTMCell": Served.REPLACED,
    }
    for name, served in expected.items():
        assert registry.lookup(name).served is served, name
    assert len(registry.table()) > 200


def test_every_replaced_name_exists_and_every_module_name_is_in_the_table():
    for name, entry in registry.table().items():
        if entry.served is Served.REPLACED:
            value = registry.resolve(name)
            if name in {f"eager.{constant}" for constant in tables.EAGER_CONSTANTS} | \
                    {f"lookup.{constant}" for constant in tables.LOOKUP_CONSTANTS} | \
                    {f"distributions.{constant}" for constant in tables.DISTRIBUTIONS_CONSTANTS}:
                # a device policy, execution mode, hasher spec, reparameterization type
                assert value is not None, name
                continue
            assert callable(value) or isinstance(value, types.ModuleType), name
    for namespace in ("layers", "framework", "seq2seq", "cudnn_rnn", "lookup"):
        module = importlib.import_module(f"tf1compat.contrib.{namespace}")
        for name in module.__all__:
            assert registry.lookup(f"{namespace}.{name}") is not None, (namespace, name)


def test_every_mapping_of_ours_resolves_on_this_tensorflow():
    for name, (target, _) in registry.MAPPED.items():
        assert registry.import_dotted(target) is not None, (name, target)
        assert registry.resolve(name) is registry.import_dotted(target)


def test_namespaces_resolve_through_the_package():
    assert contrib.layers.flatten is registry.resolve("layers.flatten")
    assert contrib.slim.fully_connected is contrib.layers.fully_connected
    assert contrib.slim.prefetch_queue.prefetch_queue.__name__ == "prefetch_queue"
    assert contrib.framework.nest.map_structure.__name__ == "map_structure"
    assert "CsvDataset" in dir(contrib.data)


@pytest.mark.parametrize("path, words", [
    ("cudnn_rnn.CudnnLSTM", ["tf.contrib.cudnn_rnn.CudnnLSTM", "CudnnCompatibleLSTMCell"]),
    ("image.connected_components", ["tf.contrib.image.connected_components"]),
    ("seq2seq.ScheduledEmbeddingTrainingHelper",
     ["tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper", "tfa.seq2seq"]),
    # older than TF 1.15 (contrib.learn's estimators themselves are TF 1.15's own source)
    ("learn.TensorFlowEstimator", ["tf.contrib.learn.TensorFlowEstimator", "no successor"]),
    ("nosuchthing", ["tf.contrib.nosuchthing", "no replacement is known"]),
    ("data.StatsAggregator", ["tf.data.experimental.StatsAggregator", "does not have"]),
])
def test_anything_else_is_an_error_naming_it_and_its_replacement(path, words):
    module = contrib
    with pytest.raises(ContribError) as caught:
        for part in path.split("."):
            module = getattr(module, part)
    assert isinstance(caught.value, AttributeError)
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_contrib_learns_mnist_reader_is_the_old_reader():
    from tf1compat.tutorials import mnist

    assert contrib.learn.datasets.mnist is mnist
    assert contrib.learn.python.learn.datasets.mnist.read_data_sets is mnist.read_data_sets
    entry = registry.lookup("learn.python.learn.datasets.mnist")
    assert (entry.served.value, entry.target) == ("replaced", "tf1compat.tutorials.mnist")
    assert registry.lookup("learn").served.value == "unsupported"


def test_dunder_lookups_stay_plain_attribute_errors():
    with pytest.raises(AttributeError) as caught:
        contrib.layers.__wrapped__
    assert not isinstance(caught.value, ContribError)


def test_the_docs_state_the_tables_size():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent.parent / "docs" / "running.md").read_text()
    counts = {served: sum(e.served is served for e in registry.table().values())
              for served in Served}
    text = (f"{len(registry.table())} names: {counts[Served.MAPPED]} mapped, "
            f"{counts[Served.REPLACED]} replaced, {counts[Served.UNSUPPORTED]} unsupported")
    assert text in " ".join(readme.split())
