"""The fenced code blocks of README.md and docs/*.md, and how each kind is checked.

A block's info string (the words after its opening fence) says what it is:

- ```python            runs; the page's plain python blocks run in order in one fresh process,
                       sharing their names (one TensorFlow start per page);
- ```python fresh      runs alone in a fresh process (it must come before any TensorFlow op,
                       as `modern.configure` must);
- ```python fragment   a part of a program whose other parts the text describes (a model_fn,
                       a cluster, a GPU): compiled, and its imports run;
- ```python file=NAME  a file that the page's commands use: written into their folder;
- ```console           `$ ` lines are commands, run in a temporary folder holding the page's
                       files; the lines after each are what it prints (stdout and stderr), compared
                       line by line: numbers within tolerances (tf1compat.compare.printed_numbers),
                       `...` inside a line matches any text, a line `...` alone any lines;
                       TensorFlow's native start-up log lines are not output;
- ```console no-run tests/FILE.py::TEST
                       an expensive command that TEST already runs and checks;
- ```bash              commands to copy: each must parse (`tf1compat` lines with the real
                       argument parser), and each script or module it names must exist;
- ```text              a table, tree, diagram or excerpt: not checked.

A block without an info string, or with another one, fails the docs test.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import shlex
from pathlib import Path
from typing import Optional

from tf1compat.compare.printed_numbers import compare

REPO_ROOT = Path(__file__).resolve().parent.parent
PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
LANGUAGES = {"python", "console", "bash", "text"}
PYTHON_FLAGS = {"fresh", "fragment"}

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+)(?P<info>.*)$")
# TensorFlow's C++ start-up lines (absl's format, and the lines before absl is set up): they
# come whatever TF_CPP_MIN_LOG_LEVEL says, and they are not what the docs describe.
_NATIVE_LOG = re.compile(
    r"^[IWEF]\d{4} [\d:.]+ +\d+ \S+:\d+\]|^WARNING: All log messages before absl"
    r"|^To enable the following instructions: ")


@dataclasses.dataclass(frozen=True)
class Block:
    page: Path
    line: int           # of the opening fence, from 1
    info: str
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO_ROOT)}:{self.line}"

    @property
    def words(self) -> list[str]:
        return self.info.split()

    @property
    def language(self) -> Optional[str]:
        return self.words[0] if self.words else None

    @property
    def flags(self) -> list[str]:
        return self.words[1:]

    @property
    def file_name(self) -> Optional[str]:
        names = [flag.split("=", 1)[1] for flag in self.flags if flag.startswith("file=")]
        return names[0] if names else None

    @property
    def covered_by(self) -> Optional[str]:
        flags = self.flags
        return flags[1] if flags[:1] == ["no-run"] and len(flags) == 2 else None


def blocks_of(page: Path) -> list[Block]:
    """Every fenced block of a page, also those indented inside list items."""
    found, lines, index = [], page.read_text().splitlines(), 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence = opening.group("indent"), opening.group("fence")
        end = index + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        if end == len(lines):
            raise AssertionError(f"{page.name}:{index + 1}: a fence that never closes")
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                         for line in lines[index + 1:end])
        found.append(Block(page, index + 1, opening.group("info").strip(), body + "\n"))
        index = end + 1
    return found


def all_blocks() -> list[Block]:
    return [block for page in PAGES for block in blocks_of(page)]


def problems(block: Block) -> list[str]:
    """Why a block's info string is not one this module knows how to check ([] when it is)."""
    if block.language is None:
        return ["no info string: say what the block is (python, console, bash, text)"]
    if block.language not in LANGUAGES:
        return [f"unknown info string {block.info!r}"]
    found = []
    if block.language == "python":
        unknown = [flag for flag in block.flags
                   if flag not in PYTHON_FLAGS and not flag.startswith("file=")]
        if unknown or len(block.flags) > 1:
            found.append(f"python takes one of fresh, fragment, file=NAME; got {block.flags}")
        try:
            compile(block.body, block.where, "exec")
        except SyntaxError as error:
            found.append(f"does not compile: {error}")
    elif block.language == "console":
        if block.flags and block.covered_by is None:
            found.append("console takes only `no-run tests/FILE.py::TEST`")
        if block.covered_by:
            found += _missing_test(block.covered_by)
        if not any(line.startswith("$ ") for line in block.body.splitlines()):
            found.append("a console block without a `$ ` command")
    elif block.flags:
        found.append(f"{block.language} takes no flags")
    return found


def _missing_test(reference: str) -> list[str]:
    path, _, name = reference.partition("::")
    file = REPO_ROOT / path
    if not path.startswith("tests/") or not file.is_file() or not name:
        return [f"no-run names {reference!r}, not an existing tests/FILE.py::TEST"]
    if not re.search(rf"^def {re.escape(name)}\(", file.read_text(), re.M):
        return [f"{path} has no test named {name}"]
    return []


def commands_and_output(block: Block) -> list[tuple[str, list[str]]]:
    """A console block as (command, the lines it prints) pairs."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return pairs


def printed_lines(output: str) -> list[str]:
    lines = [line.rstrip() for line in output.splitlines() if not _NATIVE_LOG.match(line)]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_matches(expected: str, printed: str) -> bool:
    if "..." in expected:
        pattern = ".*".join(re.escape(part) for part in expected.split("..."))
        return re.fullmatch(pattern, printed) is not None
    return compare(expected + "\n", printed + "\n").ok


def output_matches(expected: list[str], printed: list[str]) -> bool:
    """Whether printed lines are the expected ones (see the module doc for `...`)."""
    expected = [line.rstrip() for line in expected]
    while expected and not expected[-1]:
        expected.pop()

    @functools.lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(printed)
        if expected[i] == "...":
            return any(match(i + 1, k) for k in range(j, len(printed) + 1))
        return j < len(printed) and _line_matches(expected[i], printed[j]) and match(i + 1, j + 1)

    return match(0, 0)


def listed_commands(block: Block) -> list[list[str]]:
    """The simple commands of a bash block: continuation lines joined, split at `&&`, `;`, `|`,
    each without its leading VAR=value assignments."""
    text = re.sub(r"\\\n", " ", block.body)
    commands = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        current: list[str] = []
        for word in words + ["&&"]:
            if word in {"&&", "||", ";", "|"}:
                while current and re.match(r"^[A-Za-z_]\w*=", current[0]):
                    current.pop(0)
                if current:
                    commands.append(current)
                current = []
            else:
                current.append(word)
    return commands


def repository_module_exists(module: str) -> Optional[bool]:
    """Whether a module of this checkout exists; None for modules that are not this checkout's."""
    if module.split(".")[0] not in {"tf1compat", "modern", "examples", "benchmarks", "tests"}:
        return None
    base = REPO_ROOT / Path(*module.split("."))
    return any(path.is_file() for path in (base.with_suffix(".py"), base / "__init__.py",
                                           base / "__main__.py"))
