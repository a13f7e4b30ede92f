"""tf1compat.compare.printed_numbers: printed outputs compared line by line, number by number."""

import pytest

from tf1compat.compare import printed_numbers
from tf1compat.compare.printed_numbers import compare


def test_floats_within_the_tolerance_agree_and_integers_must_be_equal():
    result = compare("weights sum: 244.821\nsteps: 20\n", "weights sum: 244.818\nsteps: 20\n",
                     rtol=1e-4)
    assert result.ok and [(a.expected, a.actual) for a in result.agreements] == \
        [("244.821", "244.818"), ("20", "20")]
    assert not compare("weights sum: 244.821", "weights sum: 244.818", rtol=1e-6).ok
    assert not compare("steps: 20", "steps: 21", rtol=1.0).ok  # integers exact
    assert compare("x: 1.0", "x: 1.04", rtol=0, atol=0.05).ok


def test_the_text_besides_the_numbers_must_be_equal():
    [difference] = compare("loss after training: 0.5", "loss before training: 0.5").differences
    assert difference.kind == "text" and difference.line == 1
    assert compare("labels: uint8", "labels: int64").differences[0].kind == "text"


def test_digits_inside_names_are_text():
    line = printed_numbers.Line.parse("variable: rnn/cell_0/kernel [28, 48] model.ckpt-12 -0.25")
    assert [n.text for n in line.numbers] == ["28", "48", "12", "-0.25"]
    assert not compare("cell_0", "cell_1").ok


def test_numpy_padding_and_missing_or_extra_lines():
    assert compare("w: [ 1.5  -2. ]", "w: [-1.5 -2.]", atol=3.1).ok
    result = compare("a 1\nb 2\nc 3\n", "a 1\nwarning\nb 2\n")
    assert [(d.kind, d.line) for d in result.differences] == [("extra line", 1),
                                                               ("missing line", 3)]
    assert "printed only here: 'warning'" in result.report()


def test_nan_and_inf_agree_only_with_themselves():
    assert compare("loss: nan inf", "loss: nan inf").ok
    assert not compare("loss: nan", "loss: 0.5").ok
    assert not compare("loss: inf", "loss: -inf").ok


def test_tensorflow_placement_log_is_not_output():
    stdout = ("Device mapping:\n/job:localhost/replica:0/task:0/device:XLA_CPU:0 -> device: "
              "XLA_CPU device\nadd: (Add): /job:localhost/replica:0/task:0/device:CPU:0\n"
              "total: 3\n")
    assert printed_numbers.without_tensorflow_log(stdout) == "total: 3\n"


def test_negative_tolerance_is_refused():
    with pytest.raises(ValueError, match="rtol=-1"):
        compare("a", "a", rtol=-1)
