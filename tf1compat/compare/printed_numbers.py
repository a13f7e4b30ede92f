"""Comparing what two runs of a script printed, number by number.

Two runs of the same TF1 program (under TensorFlow 1.15 and under tf1compat, or
with oneDNN on and off) print the same lines with floats that may differ in the
last digits: kernels sum in another order, oneDNN fuses ops. So printed output is
compared as lines of text with numbers in them, never as exact text:

- the lines are matched in order (an extra or missing line is a difference, and
  does not shift the matching of the lines after it: difflib aligns them on
  their text);
- in each pair of lines the text besides the numbers must be equal (runs of
  whitespace count as one space, and a space after an opening or before a
  closing bracket as none, since NumPy pads arrays to the widest number);
- integers (no '.', no exponent) must be equal exactly: counts, steps, labels;
- floats agree when ``|actual - expected| <= atol + rtol * |expected|``; 'nan'
  agrees with 'nan' only.

A digit inside a name ('cell_0', 'data_batch_1', 'conv1') is text, not a number.

>>> compare("sum: 244.820\\nsteps: 20\\n", "sum: 244.818\\nsteps: 20\\n", rtol=1e-4).ok
True
>>> [d.describe() for d in compare("steps: 20", "steps: 21").differences]
["line 1: 21 where 20 was printed (integers must be equal): 'steps: 21'"]
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
from typing import Any, Optional

DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-6

# A number not glued to a name: no letter, digit, '_' or '.' just before it (a sign only
# when it is not a hyphen inside a word), and no letter, digit or '_' just after it.
_NUMBER = re.compile(
    r"(?<![\w.])(?:(?<![\w-])[-+])?"
    r"(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)(?![\w])",
    re.IGNORECASE)
_PLACEHOLDER = "\x00"
_PADDING = re.compile(r"(?<=[\[(]) | (?=[\])])")  # NumPy pads arrays inside brackets


@dataclasses.dataclass(frozen=True)
class Number:
    """A number as printed: its text, value, and whether it was printed as an integer."""

    text: str
    value: float
    integer: bool

    @classmethod
    def parse(cls, text: str) -> "Number":
        integer = re.fullmatch(r"[-+]?\d+", text) is not None
        return cls(text, float(text), integer)


@dataclasses.dataclass(frozen=True)
class Line:
    """A printed line: its text with each number replaced by a placeholder, and the numbers."""

    text: str
    template: str
    numbers: tuple[Number, ...]

    @classmethod
    def parse(cls, text: str) -> "Line":
        numbers = tuple(Number.parse(match.group()) for match in _NUMBER.finditer(text))
        template = _PADDING.sub("", " ".join(_NUMBER.sub(_PLACEHOLDER, text).split()))
        return cls(text, template, numbers)


@dataclasses.dataclass(frozen=True)
class Difference:
    """One disagreement. `line` counts the expected output's lines from 1 (0: none matched)."""

    kind: str  # 'number', 'text', 'missing line', 'extra line'
    line: int
    expected: Optional[str]
    actual: Optional[str]
    detail: str = ""

    def describe(self) -> str:
        if self.kind == "number":
            return f"line {self.line}: {self.detail}"
        if self.kind == "missing line":
            return f"line {self.line}: not printed: {self.expected!r}"
        if self.kind == "extra line":
            return f"after line {self.line}: printed only here: {self.actual!r}"
        return f"line {self.line}: {self.actual!r} where {self.expected!r} was printed"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Agreement:
    """A number both outputs printed, within the tolerance."""

    line: int
    expected: str
    actual: str


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The outcome: numbers that agree, and every difference (empty when the outputs agree)."""

    rtol: float
    atol: float
    agreements: tuple[Agreement, ...]
    differences: tuple[Difference, ...]

    @property
    def ok(self) -> bool:
        return not self.differences

    def report(self) -> str:
        """Lines a person reads: a summary, then each difference."""
        head = (f"{len(self.agreements)} number(s) agree within rtol={self.rtol:g} "
                f"atol={self.atol:g}; {len(self.differences)} difference(s)")
        return "\n".join([head] + ["  " + difference.describe()
                                   for difference in self.differences])

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "rtol": self.rtol, "atol": self.atol,
                "agreements": [dataclasses.asdict(a) for a in self.agreements],
                "differences": [d.to_dict() for d in self.differences]}


def _close(expected: Number, actual: Number, rtol: float, atol: float) -> bool:
    if expected.integer and actual.integer:
        return expected.value == actual.value
    if math.isnan(expected.value) or math.isnan(actual.value):
        return math.isnan(expected.value) and math.isnan(actual.value)
    if math.isinf(expected.value) or math.isinf(actual.value):
        return expected.value == actual.value
    return abs(actual.value - expected.value) <= atol + rtol * abs(expected.value)


def _compare_line(number: int, expected: Line, actual: Line, rtol: float, atol: float,
                  agreements: list, differences: list) -> None:
    if expected.template != actual.template or len(expected.numbers) != len(actual.numbers):
        differences.append(Difference("text", number, expected.text, actual.text))
        return
    for want, got in zip(expected.numbers, actual.numbers):
        if _close(want, got, rtol, atol):
            agreements.append(Agreement(number, want.text, got.text))
        elif want.integer and got.integer:
            differences.append(Difference(
                "number", number, expected.text, actual.text,
                f"{got.text} where {want.text} was printed (integers must be equal): "
                f"{actual.text!r}"))
        else:
            differences.append(Difference(
                "number", number, expected.text, actual.text,
                f"{got.text} where {want.text} was printed (differs by "
                f"{abs(got.value - want.value):.3g}, allowed {atol + rtol * abs(want.value):.3g}):"
                f" {actual.text!r}"))


# TF prints log_device_placement lines to stdout in an order that is not the program's, and
# TF 1.x prints its "Device mapping:" block there too, listing the devices of its own build
# (XLA_CPU, gone in TF 2): TensorFlow's diagnostics, not the program's results.
_TENSORFLOW_LOG = re.compile(r"^\S+: \(\w+\): /job:|^Device mapping:|^/job:\S+ -> device: ")


def without_tensorflow_log(stdout: str) -> str:
    """What a program printed, without TensorFlow's placement log lines (ends with a newline)."""
    return "\n".join(line for line in stdout.splitlines()
                     if not _TENSORFLOW_LOG.match(line)).strip() + "\n"


def compare(expected: str, actual: str, rtol: float = DEFAULT_RTOL,
            atol: float = DEFAULT_ATOL) -> Comparison:
    """Compares two printed outputs line by line and number by number (see the module doc).

    Args:
      expected: what the reference run printed.
      actual: what the run under test printed.
      rtol, atol: the float tolerance, `|actual - expected| <= atol + rtol * |expected|`.

    Raises:
      ValueError: a negative tolerance.
    """
    if rtol < 0 or atol < 0:
        raise ValueError(f"tolerances must be >= 0; received rtol={rtol}, atol={atol}")
    want = [Line.parse(text) for text in expected.splitlines()]
    got = [Line.parse(text) for text in actual.splitlines()]
    agreements: list[Agreement] = []
    differences: list[Difference] = []
    matcher = difflib.SequenceMatcher(None, [line.template for line in want],
                                      [line.template for line in got], autojunk=False)
    for tag, w0, w1, g0, g1 in matcher.get_opcodes():
        paired = min(w1 - w0, g1 - g0) if tag in ("equal", "replace") else 0
        for offset in range(paired):
            _compare_line(w0 + offset + 1, want[w0 + offset], got[g0 + offset], rtol, atol,
                          agreements, differences)
        for index in range(w0 + paired, w1):
            differences.append(Difference("missing line", index + 1, want[index].text, None))
        for index in range(g0 + paired, g1):
            differences.append(Difference("extra line", w0 + paired, None, got[index].text))
    return Comparison(rtol, atol, tuple(agreements), tuple(differences))
