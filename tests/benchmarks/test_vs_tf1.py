"""benchmarks/vs_tf1.py --quick on one script: every form runs and its table is whole.

What the benchmark measures is never asserted (a loaded machine moves it by tens of
percent); only that each form ran, produced a positive rate, and that the printed tables
have one row per form and one column per script.
"""

import json
import re
import subprocess
import sys

from budgets import budget
from isolated import REPO_ROOT, python_env

BENCHMARK = REPO_ROOT / "benchmarks" / "vs_tf1.py"
FORMS = ["tf1.15", "run, oneDNN on", "run, oneDNN off", "migrated, oneDNN on",
         "migrated, oneDNN off"]
# The cheapest script: a small dense model, most of each process is importing TensorFlow.
SCRIPT = "towers_cpu2"
CELL = re.compile(r"^[0-9.]+(/s| s) \([0-9.]+x\)$")


def tables(printed: str) -> list[list[list[str]]]:
    """The markdown tables in `printed`, each a list of rows of cells."""
    found, current = [], []
    for line in printed.splitlines() + [""]:
        if line.startswith("|"):
            current.append([cell.strip() for cell in line.strip("|").split("|")])
        elif current:
            found.append(current)
            current = []
    return found


def test_quick_run_of_one_script_has_every_form_with_a_positive_rate(tmp_path, tf1_python):
    report = tmp_path / "vs_tf1.json"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--quick", "--scripts", SCRIPT,
                           "--tf1-python", str(tf1_python), "--json", str(report)],
                          capture_output=True, text=True, env=python_env(),
                          cwd=str(REPO_ROOT), timeout=budget(90))
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-3000:]}"
    assert "TF 1.15 has no oneDNN switch" in done.stdout
    rates, walls = tables(done.stdout)
    for printed, unit in ((rates, "/s"), (walls, " s")):
        assert printed[0] == ["form", SCRIPT]
        assert [row[0] for row in printed[2:]] == FORMS
        for form, cell in printed[2:]:
            match = CELL.match(cell)
            assert match and match.group(1) == unit, (form, cell)
        assert printed[2][1].endswith("(1.00x)")  # TF 1.15 is the base of every ratio
    medians = json.loads(report.read_text())["medians"][SCRIPT]
    assert list(medians) == FORMS
    for form, cell in medians.items():
        assert cell["runs"] == 1 and not cell["errors"], (form, cell)
        assert cell["steps_per_s"] > 0 and cell["wall_s"] > 0, (form, cell)
