"""How the probe spells a name as a script does, and reads the census weights."""

from __future__ import annotations

import pytest

from tf1compat.surface import reading, spelling, weights


@pytest.mark.parametrize("name, lines", [
    ("tf.train.Saver", ["v = tf.train.Saver"]),
    ("tensorflow.contrib.slim", ["import tensorflow.contrib.slim as v"]),
    ("tensorflow.contrib.framework:arg_scope",
     ["from tensorflow.contrib.framework import arg_scope as v"]),
    ("tensorflow.python.ops:nn_ops.relu",
     ["from tensorflow.python.ops import nn_ops as v", "v = v.relu"]),
])
def test_a_name_is_spelled_as_scripts_spell_it(name, lines):
    assert spelling.statements(name, "v") == lines


@pytest.mark.parametrize("name", ["train.Saver", "tf.train..Saver", "tensorflow.a-b:c",
                                  "tensorflow.contrib:slim.1x"])
def test_a_name_in_no_accepted_form_is_refused_with_the_forms(name):
    with pytest.raises(spelling.BadName, match="name"):
        spelling.parse(name)


def test_resolving_follows_the_import_then_the_attributes():
    import os.path

    assert spelling.resolve("tf.path.join", os) is os.path.join
    with pytest.raises(spelling.BadName):
        spelling.resolve("os.path:join", None)


@pytest.mark.parametrize("name, module", [
    ("tf.train.Saver", "tf.train"), ("tf.Session", "tf"), ("tf.contrib.slim.conv2d",
                                                            "tf.contrib.slim"),
    ("tensorflow.python.ops:nn_ops", "tensorflow.python"),
])
def test_each_name_belongs_to_one_module_row(name, module):
    assert spelling.top_module(name) == module


def test_the_census_names_weigh_as_written_and_import_tensorflow_as_the_module(tmp_path):
    uses = tmp_path / "uses.csv"
    uses.write_text("name,uses,repositories,spellings\n"
                    "tf,9,3,import:tensorflow\n"
                    "tensorflow.contrib.framework.python.ops:arg_scope,20,3,"
                    "from:tensorflow.contrib.framework.python.ops:arg_scope\n")
    assert weights.read(str(uses)) == [
        weights.Weight("tf", 9, ("tensorflow",)),
        weights.Weight("tensorflow.contrib.framework.python.ops:arg_scope", 20,
                       ("tensorflow.contrib.framework.python.ops:arg_scope",))]


def test_the_first_source_wins_for_a_name(tmp_path):
    census = tmp_path / "census.csv"
    census.write_text("name,uses,repositories,spellings\ntf.contrib.slim,7,2,\n"
                      "tensorflow.python.ops:nn_ops,3,1,\n")
    other = tmp_path / "other.csv"
    other.write_text("name,uses\ntf.contrib.slim,128\n")
    merged = weights.merged([str(census), str(other)])
    assert merged["tf.contrib.slim"].uses == 7
    assert merged["tensorflow.python.ops:nn_ops"].spellings == ("tensorflow.python.ops:nn_ops",)


@pytest.mark.parametrize("text, message", [
    ("name,count\nx,1\n", "columns ['count', 'name']"),
    ("name,uses\ntrain.Saver,1\n", "line 2: 'train.Saver'"),
    ("name,uses\ntf.train.Saver,many\n", "line 2: 'tf.train.Saver', 'many'"),
])
def test_a_uses_file_the_probe_cannot_read_is_named_with_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "uses.csv"
    path.write_text(text)
    with pytest.raises(weights.WeightsError, match="--uses") as raised:
        weights.read(str(path))
    assert message in str(raised.value) and str(path) in str(raised.value)


def test_a_missing_uses_file_is_named(tmp_path):
    with pytest.raises(weights.WeightsError, match="cannot read it"):
        weights.read(str(tmp_path / "absent.csv"))


def test_tensorflows_keyword_only_wrapper_makes_its_parameters_keyword_only():
    # The raw ops' wrapper as TensorFlow defines it: its code lives in util/tf_export.py.
    namespace: dict = {}
    exec(compile("def wrapper(*args, **kwargs):\n    return 0\n",
                 "/site-packages/tensorflow/python/util/tf_export.py", "exec"), namespace)
    wrapper = namespace["wrapper"]

    def add(x, y, name=None):
        pass

    wrapper.__wrapped__ = add
    assert reading.describe(wrapper)["parameters"] == [
        ["x", reading.KEYWORD_ONLY], ["y", reading.KEYWORD_ONLY],
        ["name", reading.KEYWORD_ONLY, None]]
    assert reading.describe(add)["parameters"][0] == ["x", reading.POSITIONAL_OR_KEYWORD]
