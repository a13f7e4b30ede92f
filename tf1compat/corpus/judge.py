"""Whether a run passes, and if not, the class of its failure.

A run passes when it exits 0, prints the program's success pattern, and, where the program is
deterministic, prints the numbers TensorFlow 1.15 printed (tf1compat.compare.printed_numbers:
integers exactly, floats within the program's rtol/atol, the text beside them equal).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Optional

from tf1compat.compare import printed_numbers
from tf1compat.corpus.manifest import Program
from tf1compat.corpus.runs import Outcome

# The classes of failure, matched on the error line in this order; "numbers" and "marker" are
# found by the judge itself.
_CLASSES = (
    ("timeout", None),
    ("migrate failed", None),
    ("import path", re.compile(r"(ModuleNotFoundError|ImportError)\b.*\b(tensorflow|tf1compat)")),
    ("other module", re.compile(r"(ModuleNotFoundError|ImportError)\b")),
    ("name not served", re.compile(r"AttributeError: module '(tensorflow|tf1compat)[^']*' "
                                   r"has no attribute|is not served|not served under")),
    ("signature", re.compile(r"TypeError: .*(argument|positional|keyword)")),
    ("device", re.compile(r"(only supports NHWC|NCHW|[Dd]evice|GPU|cuDNN|CUDA)")),
    ("other behaviour", None),
)


@dataclasses.dataclass(frozen=True)
class Verdict:
    passed: bool
    failure: str = ""     # the class, empty when passed
    reason: str = ""      # one line: the error, the first differing number, the missing marker

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def compared_text(program: Program, stdout: str, stderr: str) -> str:
    """The lines whose numbers are held to TF 1.15's: stdout, or the lines of both streams that
    match the program's `compare` pattern; lines matching `ignore` are left out."""
    if program.compare == "stdout":
        lines = printed_numbers.without_tensorflow_log(stdout).splitlines()
    else:
        pattern = re.compile(program.compare)
        lines = [line for line in (stdout + "\n" + stderr).splitlines() if pattern.search(line)]
    if program.ignore:
        ignore = re.compile(program.ignore)
        lines = [line for line in lines if not ignore.search(line)]
    return "\n".join(lines) + "\n"


def judge(program: Program, outcome: Outcome, reference: Optional[Outcome]) -> Verdict:
    if outcome.returncode is None:
        return Verdict(False, "timeout", f"no exit within {program.timeout} s")
    if outcome.returncode != 0:
        return Verdict(False, _error_class(outcome), error_line(outcome))
    if not re.search(program.success, outcome.stdout + "\n" + outcome.stderr, re.MULTILINE):
        return Verdict(False, "no success marker",
                       f"exit 0 without printing {program.success!r}")
    if program.deterministic and reference is not None and outcome.mode != "tf115":
        comparison = printed_numbers.compare(
            compared_text(program, reference.stdout, reference.stderr),
            compared_text(program, outcome.stdout, outcome.stderr), program.rtol, program.atol)
        if not comparison.ok:
            first = comparison.differences[0].describe()
            return Verdict(False, "numbers differ",
                           f"{first} ({len(comparison.differences)} difference(s), "
                           f"{len(comparison.agreements)} number(s) agree)"[:300])
    return Verdict(True)


def error_line(outcome: Outcome) -> str:
    """The line that says what went wrong: a traceback's last line (at the start of a line, as
    Python prints it; TensorFlow's "Graph execution error:" with the line that says which),
    else a line of tf1compat's own (`tf1compat migrate: ...`), else the last."""
    lines = [line.rstrip() for line in outcome.stderr.splitlines() if line.strip()]
    summary = re.compile(r"^tf1compat run: \S+ (raised|exited|finished|was stopped)")
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if _EXCEPTION_LINE.match(line) and not summary.match(line):
            if line.endswith("execution error:"):  # the op's own message follows it
                detail = next((d.strip() for d in lines[index + 1:]
                               if not d.lstrip().startswith(("Detected at node", "File ", "^"))
                               and not summary.match(d)), "")
                line = f"{line} {detail}"
            return line[:300]
    for line in reversed(lines):
        if line.startswith("tf1compat") and not summary.match(line):
            return line[:300]
    return (lines[-1] if lines else f"exit {outcome.returncode}, nothing on stderr")[:300]


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b[:(]?")


def _error_class(outcome: Outcome) -> str:
    if outcome.step == "migrate":
        return "migrate failed"
    line = error_line(outcome)
    for name, pattern in _CLASSES:
        if pattern is not None and pattern.search(line):
            return name
    return "other behaviour"
