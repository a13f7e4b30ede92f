"""The suite hands pytest-xdist its longest scopes first (tests/longest_first.py), so a long
test that is collected last does not run alone at the end while the other workers idle."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent

SESSION = textwrap.dedent('''
    import json, os, sys
    import pytest
    sys.path.insert(0, os.environ["SUITE_TESTS"])
    import longest_first

    def pytest_configure(config):
        longest_first.keep_collection_order(config)

    def pytest_collection_modifyitems(config, items):
        longest_first.reorder(config, items, json.loads(os.environ["DURATIONS"]))
''')
CASES = textwrap.dedent('''
    import pytest

    @pytest.mark.xdist_group("three")
    @pytest.mark.parametrize("case", range(3))
    def test_grouped(case):
        pass

    def test_short():
        pass

    def test_long_and_last():
        pass
''')


def _order(tmp_path, durations):
    (tmp_path / "conftest.py").write_text(SESSION)
    (tmp_path / "test_cases.py").write_text(CASES)
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                           "-n", "1", "--dist", "loadgroup", "test_cases.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SUITE_TESTS": str(TESTS),
                               "DURATIONS": json.dumps(durations)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line.split("::")[1].split("@")[0].split()[0] for line in done.stdout.splitlines()
            if " PASSED " in line]


def test_the_longest_scope_runs_first_and_a_group_stays_together(tmp_path):
    order = _order(tmp_path, {"test_cases.py::test_long_and_last": 60.0,
                              "test_cases.py::test_grouped[0]": 2.0})
    assert order == ["test_long_and_last", "test_grouped[0]", "test_grouped[1]",
                     "test_grouped[2]", "test_short"]


def test_without_times_the_collection_order_stays(tmp_path):
    order = _order(tmp_path, {})
    # three short tests in one group outweigh one short test: the group first, then the rest
    assert order == ["test_grouped[0]", "test_grouped[1]", "test_grouped[2]", "test_short",
                     "test_long_and_last"]


def test_the_committed_times_name_tests_that_exist():
    seconds = json.loads((TESTS / "durations.json").read_text())["seconds"]
    assert len(seconds) > 100
    files = {test_id.split("::")[0] for test_id in seconds}
    missing = sorted(name for name in files if not (TESTS.parent / name).exists())
    # a renamed or removed file only makes the order less good; many mean the data is stale
    assert len(missing) <= len(files) // 10, (
        f"{len(missing)} of {len(files)} files in tests/durations.json no longer exist "
        f"({missing[:5]}): refresh it with python3 tests/longest_first.py REPORT.xml")
