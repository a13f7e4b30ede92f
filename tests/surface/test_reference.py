"""TF 1.15's committed side of the probe stands for what produced it, and reads as data."""

from __future__ import annotations

import json
import shutil

import pytest

from tf1compat.surface import reading, reference, spelling, weights


def test_the_committed_data_was_made_from_the_inputs_as_they_are_now():
    why = reference.stale()
    assert why is None, why


def test_the_census_names_the_dump_resolved_are_the_weight_sources_names():
    with open(reference.CENSUS_NAMES, encoding="utf-8") as handle:
        committed = handle.read()
    now = weights.names_text(weights.merged(weights.default_sources()).values())
    assert committed == now, (f"{reference.CENSUS_NAMES} lists other names than the census "
                              f"uses.csv files now give: run {reference.REGENERATE}")


def test_a_changed_input_makes_the_data_stale(tmp_path, monkeypatch):
    copies = []
    for path in reference.inputs():
        copy = tmp_path / path.replace("/", "_")
        shutil.copy(path, copy)
        copies.append(str(copy))
    before = reference.digest(tuple(copies))
    with open(copies[1], "a", encoding="utf-8") as handle:
        handle.write("# one more line\n")
    assert reference.digest(tuple(copies)) != before
    data = tmp_path / "tf115.json"
    shutil.copy(reference.DATA, data)
    monkeypatch.setattr(reference, "inputs", lambda: tuple(copies))
    why = reference.stale(str(data))
    assert why is not None and reference.REGENERATE in why


def test_the_data_has_one_name_a_line_in_order():
    with open(reference.DATA, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    names = [json.loads("{" + line.rstrip(",") + "}") for line in lines[3:-2]]
    keys = [next(iter(item)) for item in names]
    assert keys == sorted(keys) and len(keys) == len(reference.load().names)


def test_every_entry_is_one_the_reader_writes():
    data = reference.load()
    kinds = {"module", "class", "function", "constant", "object", "absent"}
    assert data.about["tensorflow"] == "1.15.0" and data.about["python"].startswith("3.7")
    for name, entry in data.names.items():
        spelling.parse(name)
        assert entry["kind"] in kinds, name
        if entry["kind"] in ("class", "function"):
            assert ("parameters" in entry) != ("unreadable" in entry), name
        if entry["kind"] == "constant":
            assert reading.is_constant_form(entry["value"]), name


def test_the_walk_covers_the_v1_api_and_contrib():
    present = reference.load().present()
    v1 = [name for name in present if name.startswith("tf.") and
          not name.startswith("tf.contrib.")]
    contrib = [name for name in present if name.startswith("tf.contrib.")]
    # The roots of what the walk reads, each a module, and their members under them.
    for module in ("tf.train", "tf.nn", "tf.keras.layers", "tf.estimator", "tf.contrib.slim",
                   "tf.contrib.layers", "tf.compat.v1"):
        assert present[module]["kind"] == "module", module
    assert any(name.startswith("tf.keras.layers.") for name in v1)
    assert any(name.startswith("tf.contrib.slim.") for name in contrib)
    # tf.compat.v1 repeats the root and is not walked again; leaked imports are left out.
    assert not any(name.startswith("tf.compat.v1.") for name in present)
    assert not any(name.rsplit(".", 1)[1] in ("absolute_import", "six", "np", "os")
                   for name in contrib)


@pytest.mark.parametrize("name", ["tf.train.Saver", "tf.raw_ops.Add"])
def test_tf_1_15_signatures_are_read_through_its_decorators(name):
    entry = reference.load().names[name]
    assert entry["kind"] in ("class", "function") and entry["parameters"], entry
    if name.startswith("tf.raw_ops."):  # kwarg_only: keyword arguments only
        assert {parameter[1] for parameter in entry["parameters"]} == {reading.KEYWORD_ONLY}
