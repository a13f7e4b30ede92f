"""The README tells the truth: its option table and its test command."""

import re
import subprocess
from pathlib import Path

import pytest

from isolated import run_python
from tf1compat.shared.option_table import markdown_table

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_readme_option_table_is_the_one_the_code_uses():
    match = re.search(r"<!-- option-table:start -->\n(.*?)<!-- option-table:end -->", README, re.S)
    assert match, "README lost its option-table markers"
    assert match.group(1) == markdown_table(), \
        "README's option table drifted: paste `tf1compat explain --table` between the markers"


def test_ci_runs_the_readme_test_command():
    extracted = subprocess.run(["bash", str(ROOT / ".ci" / "readme_command.sh"), "test-command"],
                               capture_output=True, text=True, check=True).stdout.strip()
    assert extracted.startswith("python3 -m pip install -e '.[test]'")
    assert "pytest" in extracted
    assert "readme_command.sh test-command" in (ROOT / ".ci" / "run").read_text()


def test_readme_has_exactly_two_setup_commands():
    first = subprocess.run(["bash", str(ROOT / ".ci" / "readme_command.sh"), "main-command"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert first.startswith("python3 -m pip install -e") and "tf1compat " in first
    assert README.count("<!-- main-command -->") == 1
    assert README.count("<!-- test-command -->") == 1


@pytest.mark.parametrize("onednn", ["1", "0"])
def test_readme_placement_example_runs_under_both_onednn_settings(onednn):
    match = re.search(r"<!-- placement-example -->\n```python\n(.*?)```", README, re.S)
    assert match, "README lost its placement example"
    result = run_python(match.group(1), env={"TF_ENABLE_ONEDNN_OPTS": onednn})
    assert result.stdout.strip().startswith("fused into 'hidden' (")
