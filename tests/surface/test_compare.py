"""The probe's comparison rules, on small hand-made entries and on Python objects read by
`reading` (no TensorFlow: the entries are what either side would write)."""

from __future__ import annotations

import enum
import functools

import pytest

from tf1compat.surface import compare, reading
from tf1compat.surface.compare import (CONSTANT, KIND, MISSING, SAME, SIGNATURE, UNREADABLE,
                                       Verdict)


def entry(function) -> dict:
    return reading.describe(function)


def old(x, axis=None, keep_dims=False, name=None):
    """A TF 1.15-style function."""


def test_the_same_signature_is_the_same():
    def new(x, axis=None, keep_dims=False, name=None):
        pass

    assert compare.compare(entry(old), entry(new)) == Verdict(SAME)


def test_a_name_that_does_not_resolve_is_missing_with_its_error():
    verdict = compare.compare(entry(old), reading.absent(AttributeError("no tf.old here")))
    assert verdict == Verdict(MISSING, "AttributeError: no tf.old here")


@pytest.mark.parametrize("value, kind", [
    (old, "function"), (int, "class"), (functools, "module"), (3, "constant"),
    (object(), "object"),
])
def test_each_kind_differs_from_the_others(value, kind):
    assert reading.kind_of(value) == kind
    for other in (old, int, functools, 3, object()):
        if reading.kind_of(other) != kind:
            verdict = compare.compare(reading.describe(value), reading.describe(other))
            assert verdict.status == KIND, (value, other)
            assert verdict.detail.endswith(" here") and " under TF 1.15, " in verdict.detail


def test_objects_of_another_type_are_another_kind():
    class Flags:
        pass

    class Options:
        pass

    assert compare.compare(reading.describe(Flags()), reading.describe(Flags())) == Verdict(SAME)
    assert compare.compare(reading.describe(Flags()), reading.describe(Options())) == Verdict(
        KIND, "an instance of Flags under TF 1.15, an instance of Options here")


def test_a_parameter_moved_is_named_with_both_positions():
    def new(x, keep_dims=False, axis=None, name=None):
        pass

    assert compare.compare(entry(old), entry(new)) == Verdict(
        SIGNATURE, "`axis`: position 1 under TF 1.15, position 2 here")


def test_a_parameter_renamed_is_missing_at_its_position():
    def new(x, axis=None, keepdims=False, name=None):
        pass

    assert compare.compare(entry(old), entry(new)) == Verdict(
        SIGNATURE, "`keep_dims` (position 2) missing; position 2 is `keepdims` here")


def test_a_parameter_made_keyword_only_no_longer_takes_its_position():
    def new(x, axis=None, *, keep_dims=False, name=None):
        pass

    assert compare.compare(entry(old), entry(new)) == Verdict(
        SIGNATURE, "`keep_dims`: position 2 under TF 1.15, keyword-only here")


@pytest.mark.parametrize("default, detail", [
    ("mean", "`axis`: default None under TF 1.15, 'mean' here"),
    (1.5, "`axis`: default None under TF 1.15, 1.5 here"),
])
def test_a_default_that_changed_is_named(default, detail):
    def new(x, axis=default, keep_dims=False, name=None):
        pass

    assert compare.compare(entry(old), entry(new)) == Verdict(SIGNATURE, detail)


def test_a_default_dropped_or_a_new_required_parameter_differs():
    def required(x, axis, keep_dims=False, name=None):
        pass

    def more(x, axis=None, keep_dims=False, name=None, *, mode):
        pass

    def fewer_required(x=0, axis=None, keep_dims=False, name=None, extra=1):
        pass

    assert compare.compare(entry(old), entry(required)) == Verdict(
        SIGNATURE, "`axis`: default None under TF 1.15, required here")
    assert compare.compare(entry(old), entry(more)) == Verdict(
        SIGNATURE, "`mode` required here, not a parameter under TF 1.15")
    assert compare.compare(entry(old), entry(fewer_required)) == Verdict(SAME)


def test_variadic_parameters_must_stay():
    def tf115(x, *args, **kwargs):
        pass

    def without_args(x, **kwargs):
        pass

    def without_kwargs(x, *args):
        pass

    assert compare.compare(entry(tf115), entry(without_args)) == Verdict(
        SIGNATURE, "takes *args under TF 1.15, not here")
    assert compare.compare(entry(tf115), entry(without_kwargs)) == Verdict(
        SIGNATURE, "takes **kwargs under TF 1.15, not here")


def test_only_args_and_kwargs_say_nothing_of_the_parameters():
    def forwarding(*args, **kwargs):
        pass

    verdict = compare.compare(entry(old), entry(forwarding))
    assert verdict.status == UNREADABLE and "(*args, **kwargs)" in verdict.detail
    # TF 1.15's own forwarding wrappers (tf.keras.applications) are held by kind only.
    assert compare.compare(entry(forwarding), entry(old)) == Verdict(SAME)


def test_a_parameter_reached_only_through_args_differs():
    def partly(x, *args, **kwargs):
        pass

    assert compare.compare(entry(old), entry(partly)) == Verdict(
        SIGNATURE, "`axis` (position 1) only through *args/**kwargs here")


def test_a_signature_that_cannot_be_read_here_is_not_readable():
    here = {"kind": "function", "unreadable": "ValueError: no signature found for builtin"}
    assert compare.compare(entry(old), here) == Verdict(UNREADABLE, here["unreadable"])
    unread_there = {"kind": "function", "unreadable": "ValueError: builtin"}
    assert compare.compare(unread_there, entry(old)) == Verdict(SAME)


class Mode(enum.Enum):
    AUTO = 1
    EXPLICIT = 2


@pytest.mark.parametrize("tf115, here, same", [
    (3, 3, True), (3, 4, False), ("1.15.0", "2.21.0", False), (None, None, True),
    (True, 1, False), (1.0, 1.0, True), (0, 0.0, True), (float("nan"), float("nan"), True),
    (Mode.AUTO, Mode.AUTO, True), (Mode.AUTO, Mode.EXPLICIT, False),
    ((1, "a"), (1, "a"), True), ((1, "a"), [1, "a"], False),
    (frozenset({1, 2}), frozenset({2, 1}), True),
])
def test_a_constant_is_the_same_when_its_value_is(tf115, here, same):
    verdict = compare.compare(reading.describe(tf115), reading.describe(here))
    if same:
        assert verdict == Verdict(SAME)
    else:
        assert verdict.status in (CONSTANT, KIND)
        if reading.kind_of(here) == "constant":
            assert verdict.status == CONSTANT and " under TF 1.15, " in verdict.detail


def test_the_signature_is_read_through_the_wrappers_decorators_leave():
    @functools.wraps(old)
    def decorated(*args, **kwargs):
        return old(*args, **kwargs)

    assert entry(decorated)["parameters"] == entry(old)["parameters"]
    assert compare.compare(entry(old), entry(decorated)) == Verdict(SAME)


def test_a_class_is_read_by_its_constructor_and_an_enum_not_at_all():
    class Layer:
        def __init__(self, units, activation=None, **kwargs):
            pass

    assert entry(Layer)["parameters"] == [["units", reading.POSITIONAL_OR_KEYWORD],
                                          ["activation", reading.POSITIONAL_OR_KEYWORD, None],
                                          ["kwargs", reading.VAR_KEYWORD]]
    assert "enum" in entry(Mode)["unreadable"]


def relu(x):
    pass


def test_defaults_are_held_by_what_they_are_not_where_they_live():
    sentinel = object()

    def tf115(inputs, activation_fn=relu, dtype=Mode.AUTO):
        pass

    def here(inputs, activation_fn=sentinel, dtype=Mode.AUTO):
        pass

    assert compare.compare(entry(tf115), entry(here)) == Verdict(
        SIGNATURE, "`activation_fn`: default <function relu> under TF 1.15, <object object> here")


def test_an_enum_tf2_renamed_keeps_its_members_as_defaults():
    """TF 2.21 renamed CollectiveCommunication, keeping the old name for the same class."""
    import tensorflow as tf

    for old, new in compare.ENUM_RENAMES.items():
        assert getattr(tf.distribute.experimental, old) is \
            getattr(tf.distribute.experimental, new)
    theirs = [["communication", "either", {"enum": "CollectiveCommunication.AUTO"}]]
    ours = [["communication", "either", {"enum": "CommunicationImplementation.AUTO"}]]
    assert compare.signature_difference(theirs, ours) is None
    other = [["communication", "either", {"enum": "CommunicationImplementation.RING"}]]
    assert "default" in compare.signature_difference(theirs, other)


def test_a_function_that_became_a_class_is_held_to_its_calls():
    function = {"kind": "function", "parameters": [["dtype", "either"], ["shape", "either"]]}
    cls = {"kind": "class", "parameters": [["shape", "either"], ["dtype", "either", None]]}
    verdict = compare.compare(function, cls)
    assert verdict.status == SIGNATURE and "a class here" in verdict.detail
    same = {"kind": "class", "parameters": [["dtype", "either"], ["shape", "either"]]}
    assert compare.compare(function, same).status == SAME
    assert compare.called_alike(function, cls)
    assert not compare.called_alike(cls, function)  # isinstance against a function: no
    assert compare.compare(cls, function).status == KIND
