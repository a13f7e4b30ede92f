"""The probe end to end on a sample of real names: two TF 2.21 processes (`run`'s view and
`migrate`'s output) held against the committed TF 1.15 data, and the numbers it reports
computed from what they served. The whole surface takes minutes (`python -m
tf1compat.surface`); this is a fixed sample of it, the same on every machine."""

from __future__ import annotations

import contextlib
import io
import json

import budgets
import pytest

from tf1compat.surface import __main__ as cli
from tf1compat.surface import compare, probe, reference, report, weights
from tf1compat.surface.probe import SIDES

SAMPLE = 40
# Names whose outcome is TensorFlow's, not tf1compat's to change: the same signature on
# both (tf.raw_ops.Add is keyword-only on both through TF's kwarg_only), a constant of
# the release, and a raw op TF 2.21 removed.
FIXED = {"tf.train.Saver": compare.SAME, "tf.raw_ops.Add": compare.SAME,
         "tf.VERSION": compare.CONSTANT, "tf.raw_ops.CompareAndBitpack": compare.MISSING}
HELD_BY_CALLS = "tf.reduce_mean"  # migrate rewrites its calls (keep_dims= -> keepdims=)
CENSUS_TOP = 12  # the most used census names join the sample, so the headline has uses
# Names `run` and `migrate` once served differently, each for its own reason: a private
# function TF 2.21 reordered (top_k), renamed a parameter of in place (WatchOptions), a
# function TF 2.21 made a class (TensorStructure), one TF 1.15 refuses by position
# (sparse_split) or whose result migrate converts (strings.split), an enum TF 2.21 renamed
# (MultiWorkerMirroredStrategy), a class that swaps its base (TensorBoard), a module TF 2.21
# lacks (profiler) and a contrib module served in part (learn). Both sides must now agree.
AGREED = ("tensorflow.python.ops.nn_ops:top_k", "tensorflow.python.debug:WatchOptions",
          "tf.data.experimental.TensorStructure", "tf.sparse_split", "tf.strings.split",
          "tf.distribute.experimental.MultiWorkerMirroredStrategy",
          "tf.compat.v2.keras.callbacks.TensorBoard", "tensorflow.python.eager:profiler",
          "tf.contrib.learn")


@pytest.fixture(scope="module")
def census():
    return sorted(weights.merged(weights.default_sources()).values(),
                  key=lambda weight: (-weight.uses, weight.name))


@pytest.fixture(scope="module")
def probed(census):
    data = reference.load()
    present = data.present()
    extra = set(FIXED) | {name for weight in census[:CENSUS_TOP] for name in weight.spellings
                          if name in present} | {HELD_BY_CALLS, *AGREED}
    found = probe.run_probe(data, SAMPLE, sorted(extra), timeout=budgets.budget(120))
    return data, found


def test_every_name_probed_has_a_verdict_from_both_sides(probed):
    data, found = probed
    names = [outcome.name for outcome in found]
    assert len(names) >= SAMPLE and names == sorted(set(names))
    for outcome in found:
        assert outcome.tf115 == data.names[outcome.name]
        for side in SIDES:
            assert outcome.entries[side]["kind"] in reading_kinds()
            assert outcome.verdicts[side].status in compare.STATUSES


def reading_kinds():
    return {"module", "class", "function", "constant", "object", "absent"}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_names_tensorflow_decides_get_their_verdict_under_run_and_migrate(probed, name):
    _, found = probed
    outcome = next(outcome for outcome in found if outcome.name == name)
    for side in SIDES:
        assert outcome.verdicts[side].status == FIXED[name], (side, outcome.verdicts[side],
                                                              outcome.entries[side])
    if FIXED[name] == compare.CONSTANT:
        assert "'1.15.0' under TF 1.15" in outcome.verdicts["run"].detail


def test_migrate_keeps_what_it_rewrote_each_name_to(probed):
    _, found = probed
    saver = next(outcome for outcome in found if outcome.name == "tf.train.Saver")
    assert "tf.compat.v1.train.Saver" in saver.entries["migrate"]["migrated"]
    assert "migrated" not in saver.entries["run"]


def _served_uses(found, census) -> tuple[int, int]:
    """The headline counted here from the outcomes, as the report's docstring defines it."""
    by_name = {outcome.name: outcome for outcome in found}
    absent = {name for name, entry in reference.load().names.items()
              if entry["kind"] == "absent"}
    served = total = 0
    for weight in census:
        if any(name not in by_name and name not in absent for name in weight.spellings):
            continue
        there = [by_name[name] for name in weight.spellings if name in by_name]
        if there:
            total += weight.uses
            served += weight.uses * all(o.same("run") and o.same("migrate") for o in there)
    return served, total


def test_the_headline_is_counted_from_what_was_served(probed, census):
    data, found = probed
    absent = [name for name, entry in data.names.items() if entry["kind"] == "absent"]
    result = report.summary(found, census, absent)["census"]
    served, total = _served_uses(found, census)
    assert (result["served"], result["uses"]) == (served, total) and total > 0
    # One served census name no longer served: the headline loses exactly its uses.
    by_name = {outcome.name: outcome for outcome in found}
    weight = next(w for w in census if all(n in by_name and by_name[n].same("run") and
                                           by_name[n].same("migrate") for n in w.spellings))
    flipped = by_name[weight.spellings[0]]
    flipped.verdicts["migrate"] = compare.Verdict(compare.MISSING, "taken away")
    try:
        again = report.summary(found, census, absent)["census"]
    finally:
        flipped.verdicts["migrate"] = compare.Verdict(compare.SAME)
    assert again["served"] == result["served"] - weight.uses
    sides = again["share_by_side"]
    assert sides["run"] == result["share_by_side"]["run"]
    assert sides["migrate"] == pytest.approx(result["share_by_side"]["migrate"] -
                                             weight.uses / result["uses"])
    assert weight.name in [row["name"] for row in again["most_used_not_served"]]


def test_the_command_prints_the_tables_and_the_headline(probed, census, monkeypatch):
    _, found = probed
    served = {side: {o.name: o.entries[side] for o in found} for side in SIDES}
    monkeypatch.setattr(probe, "serve", lambda names, timeout=0, tf115=None: {
        side: {name: served[side][name] for name in names} for side in SIDES})
    names = [arg for o in found for arg in ("--name", o.name)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(names + ["--json"]) == 0
    result = json.loads(out.getvalue())
    assert sorted(result["verdicts"]) == [o.name for o in found]
    served_uses, total = _served_uses(found, census)
    assert (result["census"]["served"], result["census"]["uses"]) == (served_uses, total)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(names) == 0
    text = out.getvalue()
    assert f"under both run and migrate: {served_uses}/{total}" in text
    assert "tf.train " in text and "most used census names not served:" in text


def test_bad_options_are_named_before_any_process_starts(tmp_path, capsys):
    assert cli.main(["--uses", str(tmp_path / "absent.csv")]) == 1
    assert "absent.csv" in capsys.readouterr().err
    assert cli.main(["--name", "tf.no_such_name_in_tf115"]) == 1
    assert "--name 'tf.no_such_name_in_tf115'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--sample", "0"])
    assert "--sample '0'" in capsys.readouterr().err


def test_a_name_migrate_rewrites_at_each_call_is_held_by_its_calls(probed):
    _, found = probed
    mean = next(outcome for outcome in found if outcome.name == HELD_BY_CALLS)
    calls = mean.entries["migrate"]["calls"]
    assert calls["forms"] >= 5 and calls["problems"] == []
    assert mean.verdicts["migrate"].status == compare.SAME
    assert mean.verdicts["migrate"].detail.startswith("by its calls")
    assert "calls" not in mean.entries["run"]


@pytest.mark.parametrize("name", AGREED)
def test_names_once_served_differently_are_served_as_tf115_by_both(probed, name):
    _, found = probed
    outcome = next(outcome for outcome in found if outcome.name == name)
    for side in SIDES:
        assert outcome.same(side), f"{side}: {outcome.reason(side)}"
