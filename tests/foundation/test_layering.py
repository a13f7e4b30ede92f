"""The layers the folders show are the layers the imports have.

- `tf1compat.shared`, the model both worlds use, imports neither world;
- `modern`, the TF2 world, imports only the shared layer and public tool packages;
- the TF1 world does not import `modern` (only the CLI, and the fixes the launcher
  puts into the processes it starts, do);
- no module imports another package's private (`_x`) module;
- no import circles, no module over 400 lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .import_graph import Edge, cycles, edges, module_files

ROOT = Path(__file__).resolve().parents[2]
SHARED = "tf1compat.shared"
# Public tool packages a layer below the CLI may use: the hdfs:// file system.
TOOLS_FOR_EVERYONE = ("tf1compat.hdfs",)
# Tools that drive both worlds, so may import modern: the CLI verbs, and the fixes
# `tf1compat launch` installs in every task it starts (Keras 3 multi-worker `fit`).
MAY_IMPORT_MODERN = ("tf1compat.cli", "tf1compat.launch.task_fixes")
MAX_LINES = 400


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def _private_module_of_another_package(edge: Edge) -> bool:
    """Whether `edge` reaches into a `_x` module that is not in the importer's own package tree."""
    importer_package = edge.importer.split(".")
    parts = edge.target.split(".")
    for index, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = parts[:index]
            if importer_package[:len(owner)] != owner:
                return True
    return False


@pytest.fixture(scope="module")
def graph() -> list[Edge]:
    return edges(ROOT)


def _violations(graph: list[Edge], importers: tuple[str, ...], allowed) -> list[str]:
    return [str(edge) for edge in graph
            if _within(edge.importer, importers) and not allowed(edge.target)]


def test_the_shared_layer_imports_neither_world(graph):
    bad = _violations(graph, (SHARED,),
                      lambda target: _within(target, (SHARED,) + TOOLS_FOR_EVERYONE))
    assert not bad, "tf1compat.shared must import only itself (and tf1compat.hdfs):\n" + \
        "\n".join(bad)


def test_modern_imports_only_the_shared_layer_and_public_tools(graph):
    bad = _violations(graph, ("modern",),
                      lambda target: _within(target, ("modern", SHARED) + TOOLS_FOR_EVERYONE))
    assert not bad, "modern must import only modern, tf1compat.shared and tf1compat.hdfs:\n" + \
        "\n".join(bad)


def test_the_tf1_world_does_not_import_modern(graph):
    bad = [str(edge) for edge in graph
           if _within(edge.importer, ("tf1compat",)) and _within(edge.target, ("modern",))
           and not _within(edge.importer, MAY_IMPORT_MODERN)]
    assert not bad, "only the CLI may import modern:\n" + "\n".join(bad)


def test_only_the_command_line_imports_the_command_line(graph):
    # The verbs are the top: an engine a verb uses (compare's, migrate's) lives in its own
    # package, where the corpus, the probe and the tests reach it too.
    bad = [str(edge) for edge in graph if _within(edge.target, ("tf1compat.cli",))
           and not _within(edge.importer, ("tf1compat.cli",))]
    assert not bad, "only tf1compat.cli may import tf1compat.cli:\n" + "\n".join(bad)


def test_no_module_imports_a_private_module_of_another_package(graph):
    bad = [str(edge) for edge in graph if _private_module_of_another_package(edge)]
    assert not bad, "private modules are their package's own:\n" + "\n".join(bad)


def test_the_process_toolkit_imports_nothing_of_the_project(graph):
    """run, launch and the corpus stand on it; it stands on the standard library alone."""
    bad = [str(edge) for edge in graph if _within(edge.importer, ("tf1compat.process",))
           and not _within(edge.target, ("tf1compat.process",))]
    assert not bad, "tf1compat.process must import only itself:\n" + "\n".join(bad)


def test_there_are_no_import_circles(graph):
    found = cycles(graph)
    described = []
    for circle in found:
        members = set(circle)
        described.append(" <-> ".join(circle) + "\n    " + "\n    ".join(
            str(edge) for edge in graph if edge.importer in members and edge.target in members))
    assert not found, "import circles:\n" + "\n".join(described)


def test_no_module_is_over_400_lines():
    paths = list(module_files(ROOT).values())
    for folder in ("tests", "examples", "benchmarks"):
        paths += sorted((ROOT / folder).rglob("*.py"))
    long = [f"{path.relative_to(ROOT)}: {count} lines" for path in paths
            if (count := len(path.read_text().splitlines())) > MAX_LINES]
    assert not long, f"modules over {MAX_LINES} lines:\n" + "\n".join(long)


# The checks themselves: each catches what it is for.

def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path):
    package = tmp_path / "tf1compat"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from tf1compat import b\n")
    (package / "b.py").write_text("def late():\n    from tf1compat.a import thing\n")
    (package / "c.py").write_text("import tf1compat.a\n")
    (tmp_path / "modern").mkdir()
    assert cycles(edges(tmp_path)) == [["tf1compat.a", "tf1compat.b"]]


@pytest.mark.parametrize("importer, target, private", [
    ("modern.input_pipeline", "tf1compat._csv.spec", True),
    ("modern.input_pipeline", "modern.input_pipeline._dataset", False),
    ("tf1compat.input_pipeline", "tf1compat.input_pipeline._feeder", False),
    ("tf1compat.cli.run", "tf1compat.runner._internal", True),
    ("tf1compat.runner.bootstrap", "tf1compat.runner._internal", False),
])
def test_the_private_module_rule(importer, target, private):
    assert _private_module_of_another_package(Edge(importer, target, 1)) is private


# The top of each package shows its world: the TF1 world's public modules and the tool
# packages; a tool's internals live in the tool's folder (launch/, runner/, cli/, ...).
TOP_LEVEL = {
    "tf1compat": {"__init__", "cluster", "compat_session", "layers", "placement", "rnn_cell",
                  "session_defaults", "tf0_names", "towers", "input_pipeline", "shared", "cli",
                  "contrib", "estimator", "hdfs", "launch", "migrate", "runner", "tutorials",
                  "census", "corpus", "surface", "notebook", "keras2", "process", "compare"},
    "modern": {"__init__", "_py_guard", "cluster", "code_text", "config", "devices",
               "distribute", "fault_tolerance", "input_pipeline", "inventory",
               "keras_multi_worker", "layer_placement", "placement", "planning", "runtime", "slurm",
               "towers", "tf1_checkpoint", "mnist_reader"},
}


@pytest.mark.parametrize("package", sorted(TOP_LEVEL))
def test_the_top_of_each_package_holds_its_world_and_its_tool_folders(package):
    found = {path.stem for path in (ROOT / package).iterdir()
             if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists())}
    assert found == TOP_LEVEL[package], (
        f"{package}/ has {sorted(found - TOP_LEVEL[package])} new at its top and lacks "
        f"{sorted(TOP_LEVEL[package] - found)}: put a tool's internals in its folder")
