"""Every code block of README.md and docs/*.md is tested, by the kind its info string names
(tests/docs_blocks.py says which kinds there are and how each is checked), and every verb's
`--help` ends with the docs page that covers it."""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import docs_blocks
from budgets import budget
from docs_blocks import REPO_ROOT, Block
from isolated import python_env
from tf1compat.cli.main import build_parser

BLOCKS = docs_blocks.all_blocks()


def _python_runs() -> list[pytest.param]:
    """One run per page for its plain python blocks, and one per `fresh` block."""
    runs = []
    for page in docs_blocks.PAGES:
        mine = [b for b in BLOCKS if b.page == page and b.language == "python"]
        shared = [b for b in mine if not b.flags]
        groups = ([shared] if shared else []) + [[b] for b in mine if b.flags == ["fresh"]]
        for group in groups:
            # The placement example's outcome depends on Grappler's and oneDNN's rewrites: it
            # runs again in CI's oneDNN-off pass.
            marks = [pytest.mark.rewrites] if page.name == "placement.md" else []
            runs.append(pytest.param(group, id=group[0].where, marks=marks))
    return runs


def _run(argv: list[str], cwd: Path, env: dict[str, str], idle_seconds: float = 60
         ) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=str(cwd), env=python_env(env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          timeout=budget(idle_seconds))


def test_every_block_says_what_it_is_and_is_well_formed():
    assert len(BLOCKS) > 30
    found = [f"{block.where}: {problem}" for block in BLOCKS
             for problem in docs_blocks.problems(block)]
    assert not found, "\n".join(found)
    # A file block is tested through the commands that use it: one on its page must name it.
    unused = [block.where for block in BLOCKS if block.file_name and not any(
        block.file_name in command for other in docs_blocks.blocks_of(block.page)
        if other.language == "console" and other.covered_by is None
        for command, _ in docs_blocks.commands_and_output(other))]
    assert not unused, f"file blocks no command of their page uses: {unused}"


def test_a_block_without_an_info_string_is_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```\nprint(1)\n```\n\n  ```python fresh\n  print(2)\n  ```\n")
    plain, fresh = docs_blocks.blocks_of(page)
    assert docs_blocks.problems(plain) and fresh.info == "python fresh"
    assert fresh.body == "print(2)\n"


def test_readme_starts_with_the_users_own_script():
    readme = [b for b in BLOCKS if b.page.name == "README.md"]
    commands = [command for b in readme if b.language == "console"
                for command, _ in docs_blocks.commands_and_output(b)]
    assert commands[:3] == ["tf1compat run train.py", "tf1compat migrate train.py --diff",
                            'tf1compat compare --tf1-python "$TF1_PYTHON" --script train.py']
    assert [b.file_name for b in readme if b.file_name] == ["train.py"]
    text = (REPO_ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 300
    assert text.index("tf1compat run train.py") < text.index("<!-- main-command -->")


@pytest.mark.parametrize("group", _python_runs())
def test_python_blocks_run(group: list[Block], tmp_path):
    program = "\n".join([
        "import sys",
        f"BLOCKS = {[(block.where, block.body) for block in group]!r}",
        "namespace = {'__name__': '__main__'}",
        "for where, source in BLOCKS:",
        "    try:",
        "        exec(compile(source, where, 'exec'), namespace)",
        "    except BaseException:",
        "        print(f'docs block at {where} failed', file=sys.stderr)",
        "        raise",
    ])
    result = _run([sys.executable, "-c", program], tmp_path, {"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert result.returncode == 0, result.stdout[-4000:]


def test_the_imports_of_every_fragment_run(tmp_path):
    imports = sorted({ast.unparse(node) for block in BLOCKS if block.flags == ["fragment"]
                      for node in ast.walk(ast.parse(block.body))
                      if isinstance(node, (ast.Import, ast.ImportFrom))})
    assert any("tf1compat" in line for line in imports) and any("modern" in line for line in imports)
    program = "\n".join([
        "import json",
        f"IMPORTS = {imports!r}",
        "failed = {}",
        "for line in IMPORTS:",
        "    try:",
        "        exec(line, {})",
        "    except Exception as error:",
        "        failed[line] = repr(error)",
        "print(json.dumps(failed))",
    ])
    result = _run([sys.executable, "-c", program], tmp_path, {"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert result.returncode == 0, result.stdout[-4000:]
    assert json.loads(result.stdout.splitlines()[-1]) == {}


def _listing_problems(words: list[str]) -> list[str]:
    program, args = words[0], words[1:]
    if program == "tf1compat":
        try:
            build_parser().parse_args(args)
        except SystemExit:
            return [f"tf1compat does not take {shlex.join(words)!r}"]
        return []
    if program in {"python", "python3", "bash"}:
        if args[:1] == ["-m"]:
            exists = docs_blocks.repository_module_exists(args[1])
            return [f"no module {args[1]}"] if exists is False else []
        scripts = [arg for arg in args if not arg.startswith("-")][:1]
        return [f"no file {path}" for path in scripts if not (REPO_ROOT / path).is_file()]
    if program in {"cd", "pip", "sbatch"}:  # sbatch: a job script the listing wrote
        return []
    if program in {"salloc", "srun"} and "tf1compat" in args:  # the command it runs
        return _listing_problems(args[args.index("tf1compat"):])
    return [f"a command the docs test does not know: {program}"]


def test_every_listed_command_parses_and_names_what_exists():
    listings = [b for b in BLOCKS if b.language == "bash"]
    assert len(listings) > 10
    found = [f"{block.where}: {problem}" for block in listings
             for words in docs_blocks.listed_commands(block)
             for problem in _listing_problems(words)]
    assert not found, "\n".join(found)


def test_a_wrong_option_in_a_listing_is_found():
    assert _listing_problems(["tf1compat", "run", "--no-such-option", "train.py"])
    assert _listing_problems(["python3", "benchmarks/no_such_benchmark.py"])
    assert _listing_problems(["python", "-m", "tf1compat.no_such_module"])
    assert not _listing_problems(["tf1compat", "run", "--device-map", "gpu:*=cpu:*", "t.py"])


def _console_blocks() -> list[pytest.param]:
    return [pytest.param(b, id=b.where) for b in BLOCKS
            if b.language == "console" and b.covered_by is None]


def _command_folder(block: Block, tmp_path: Path) -> tuple[Path, Path]:
    work, bin_dir = tmp_path / "work", tmp_path / "bin"
    work.mkdir()
    bin_dir.mkdir()
    for other in docs_blocks.blocks_of(block.page):
        if other.file_name:
            (work / other.file_name).write_text(other.body)
    # The commands as the README names them, run from this checkout with this interpreter.
    wrappers = {"tf1compat": "-m tf1compat.cli.main ", "python": "", "python3": ""}
    for name, arguments in wrappers.items():
        wrapper = bin_dir / name
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" {arguments}"$@"\n')
        wrapper.chmod(0o755)
    return work, bin_dir


@pytest.mark.parametrize("block", _console_blocks())
def test_console_commands_print_what_the_docs_show(block: Block, tmp_path, request):
    work, bin_dir = _command_folder(block, tmp_path)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "TF_CPP_MIN_LOG_LEVEL": "3"}
    for command, expected in docs_blocks.commands_and_output(block):
        if "$TF1_PYTHON" in command:
            env["TF1_PYTHON"] = str(request.getfixturevalue("tf1_python"))
        result = _run(["bash", "-c", command], work, env, idle_seconds=90)
        printed = docs_blocks.printed_lines(result.stdout)
        assert docs_blocks.output_matches(expected, printed), (
            f"{block.where}: `{command}` (exit {result.returncode}) printed:\n"
            + "\n".join(printed) + "\n--- where the docs show:\n" + "\n".join(expected))


def test_output_matching_follows_the_conventions():
    match = docs_blocks.output_matches
    assert match(["loss 0.6399", "..."], ["loss 0.63990001", "more", "lines"])
    assert match(["roots: ... (script folder)"], ["roots: /tmp/x (script folder)"])
    assert not match(["loss 0.6399"], ["loss 0.7"])
    assert not match(["step 2"], ["step 3"])
    assert not match(["one"], ["one", "an extra line"])


def _verb_parsers() -> dict[str, object]:
    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if a.dest == "verb"]
    return {"tf1compat": parser, **subparsers.choices}


@pytest.mark.parametrize("verb", sorted(_verb_parsers()))
def test_help_ends_with_the_docs_page_of_the_verb(verb):
    text = _verb_parsers()[verb].format_help()
    last = " ".join(text.strip().split("\n\n")[-1].split())  # the last paragraph, unwrapped
    pages = re.findall(r"(?:docs/[\w.-]+\.md|README\.md)", last)
    assert pages, f"`{verb} --help` ends with {last!r}, naming no docs page"
    for page in pages:
        assert (REPO_ROOT / page).is_file(), page


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_reaches_a_page_and_heading():
    broken = []
    for page in docs_blocks.PAGES:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+://", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.is_file():
                broken.append(f"{page.name}: {target}: no such file")
                continue
            headings = re.findall(r"^#+ (.*)$", linked.read_text(), re.M)
            if anchor and anchor not in {_slug(heading) for heading in headings}:
                broken.append(f"{page.name}: {target}: no such heading")
    assert not broken, "\n".join(broken)
    readme = (REPO_ROOT / "README.md").read_text()
    unlinked = [page.name for page in docs_blocks.PAGES[1:] if f"(docs/{page.name}" not in readme]
    assert not unlinked, f"README.md does not link {unlinked}"
    assert _slug("`tf.contrib` by the numbers") == "tfcontrib-by-the-numbers"
