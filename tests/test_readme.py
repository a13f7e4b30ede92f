"""The README tells the truth: its option table and its two commands. (Its code blocks, and
those of docs/, are run by test_docs.py.)"""

import re
import subprocess
from pathlib import Path

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


def test_the_placement_example_is_a_docs_block_that_runs_in_both_onednn_passes():
    # test_docs.py runs docs/placement.md's python blocks, marked `rewrites`, so CI runs the
    # example with oneDNN on and off; the block asserts where each op ran.
    page = (ROOT / "docs" / "placement.md").read_text()
    match = re.search(r"<!-- placement-example -->\n```python\n(.*?)```", page, re.S)
    assert match, "docs/placement.md lost its placement example"
    assert 'assert layer.locate("mm").note.startswith("fused into \'hidden\' (")' in match.group(1)
