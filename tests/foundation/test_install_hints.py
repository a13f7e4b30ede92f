"""Every `pip install` hint the code prints installs what this project pins.

A missing optional part is named with this project's extra
(`pip install 'tf1compat[slim]'`), whose version pyproject.toml pins; a missing
dependency with its requirement exactly as pyproject.toml declares it; a
missing build with a reinstall of the checkout (`pip install -e .`).
"""

import ast
import os
import re
import textwrap

import pytest

from isolated import REPO_ROOT, python_env, run_cli, run_python

tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's")

SCANNED = ("tf1compat", "modern", "examples")
HINT = re.compile(r"pip install((?:\s+-[a-zA-Z]+)*)\s+('[^']+'|[^\s`'\",;)]+)")
EXTRAS = re.compile(r"^(?:tf1compat|\.)\[([^\]]+)\]$")


def _project():
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]


def _strings(tree):
    """Every string literal, implicit concatenations and f-strings' literal parts joined."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(part.value if isinstance(part, ast.Constant) else "{}"
                                       for part in node.values)


def _hints():
    for package in SCANNED:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            for line, text in _strings(ast.parse(path.read_text(), str(path))):
                for match in HINT.finditer(" ".join(text.split())):
                    yield f"{path.relative_to(REPO_ROOT)}:{line}", match.group(2).strip("'")


def _wrong(target: str, extras: dict, dependencies: list) -> str:
    named = EXTRAS.match(target)
    if named:
        unknown = [name for name in named.group(1).split(",") if name.strip() not in extras]
        return f"no such extra {unknown}" if unknown else ""
    if target == ".":
        return ""
    if target in dependencies:
        return ""
    return "names neither an extra of tf1compat nor a requirement of pyproject.toml"


def test_every_install_hint_names_an_extra_or_a_pinned_requirement():
    project = _project()
    extras, dependencies = project["optional-dependencies"], project["dependencies"]
    hints = list(_hints())
    assert len(hints) >= 10  # the scan finds the hints at all
    wrong = [f"{where}: pip install {target}: {problem}" for where, target in hints
             if (problem := _wrong(target, extras, dependencies))]
    assert not wrong, "\n".join(wrong)


def test_the_hint_check_refuses_a_bare_package_and_an_unknown_extra():
    project = _project()
    extras, dependencies = project["optional-dependencies"], project["dependencies"]
    assert _wrong("tf-slim", extras, dependencies)
    assert _wrong("tf1compat[hdfs]", extras, dependencies)
    assert not _wrong("tf1compat[slim]", extras, dependencies)
    assert not _wrong("hdfs-native>=0.14,<0.15", extras, dependencies)


def test_the_readme_command_installs_what_compare_needs():
    extras = _project()["optional-dependencies"]
    readme = (REPO_ROOT / "README.md").read_text()
    assert "pip install -e '.[legacy]' && tf1compat compare" in readme
    assert any(requirement.startswith("tf_keras") for requirement in extras["legacy"])
    for needed in ("matplotlib", "ruff"):
        assert any(requirement.startswith(needed) for requirement in extras["test"]), needed


_HIDE = textwrap.dedent("""
    import sys
    class _Hide:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {hidden!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
    sys.meta_path.insert(0, _Hide())
""")


def test_the_examples_data_needs_no_package_beyond_numpy():
    # Keras 3 imports scikit-learn inside `import tensorflow` when it is installed (about a
    # second a process), so neither the examples nor the test environment depend on it.
    result = run_python(_HIDE.format(hidden=["sklearn", "scipy", "pandas"]) + textwrap.dedent("""
        from examples.data import load_digits_split
        x_train, y_train, x_test, y_test = load_digits_split()
        print(x_train.shape, x_test.shape, sorted(set(y_test.tolist())))
    """))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "(1437, 64) (360, 64) [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" in result.stdout
    # The `corpus` extra is the environment that measures real programs (some import
    # scikit-learn), not the test environment's
    extras = {name: reqs for name, reqs in _project()["optional-dependencies"].items()
              if name != "corpus"}
    assert not [r for reqs in extras.values() for r in reqs if r.startswith("scikit-learn")]


def test_compare_plot_without_matplotlib_names_the_extra_before_running_anything(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(_HIDE.format(hidden=["matplotlib"]))
    path = os.pathsep.join([str(blocker), python_env()["PYTHONPATH"]])
    result = run_cli("compare", "--examples", str(tmp_path / "none"), "--plot",
                     str(tmp_path / "curves.png"), env={"PYTHONPATH": path})
    assert result.returncode != 0
    assert "--plot needs matplotlib: pip install 'tf1compat[plot]'" in result.stderr
    assert "no examples folder" not in result.stderr  # refused before looking for examples
