"""The suite's `--dist loadgroup` really groups: the tests of one xdist_group run on one worker.

Several fixtures are meant to run once per suite (the MiniDFS cluster, the migrated corpus,
module-scoped TensorFlow trainings); when grouping silently stops, each worker runs them
again and CI takes minutes longer with nothing failing. This runs a small pytest session
with two workers, as the README's test command does, and reads which worker ran what.
"""

import os
import subprocess
import sys
import textwrap

GROUPED = textwrap.dedent('''
    import os
    import pytest

    def _note(tmp_path_factory, name):
        with open(os.environ["WORKERS_LOG"], "a") as out:
            out.write(name + " " + os.environ.get("PYTEST_XDIST_WORKER", "none") + "\\n")

    @pytest.fixture(scope="session")
    def once(tmp_path_factory):
        _note(tmp_path_factory, "fixture")

    @pytest.mark.xdist_group("together")
    @pytest.mark.parametrize("case", range(6))
    def test_grouped(case, once, tmp_path_factory):
        _note(tmp_path_factory, "grouped")

    @pytest.mark.parametrize("case", range(6))
    def test_free(case, tmp_path_factory):
        _note(tmp_path_factory, "free")
''')


def test_an_xdist_group_runs_on_one_worker_and_its_session_fixture_once(tmp_path):
    log = tmp_path / "workers.txt"
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-n", "2", "--dist", "loadgroup", "test_grouped.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "WORKERS_LOG": str(log)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [line.split() for line in log.read_text().split("\n")
             if line]
    grouped = {worker for name, worker in lines if name == "grouped"}
    fixtures = [worker for name, worker in lines if name == "fixture"]
    assert len([1 for name, _ in lines if name == "grouped"]) == 6
    assert len(grouped) == 1 and fixtures == list(grouped), (
        f"the group ran on {sorted(grouped)} and its session fixture was set up on {fixtures}: "
        "--dist loadgroup does not group with this pytest and pytest-xdist (see the pin in "
        "pyproject.toml's test extra)")
