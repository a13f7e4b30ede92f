"""The one module view base: what a view answers, what it keeps, and that every view is one."""

import ast
import types
from pathlib import Path

import pytest

from tf1compat.shared.module_view import TARGET, ModuleView

ROOT = Path(__file__).resolve().parents[2]


def _target():
    module = types.ModuleType("target", "the target's doc")
    module.plain = 1
    module.__version__ = "9"
    return module


class Counting(ModuleView):
    """Serves `served` itself (counting reads), the rest from the target."""

    def __init__(self, target):
        super().__init__("counting", target)
        self._view_set("reads", 0)

    def _view_attribute(self, name):
        if name == "served":
            self._view_set("reads", self.reads + 1)
            return "ours"
        return TARGET

    def _view_names(self):
        return ("served",)


class Keeping(Counting):
    KEEPS = True


def test_a_view_that_keeps_nothing_is_asked_at_every_read():
    view = Counting(_target())
    assert (view.served, view.served, view.reads) == ("ours", "ours", 2)
    assert view.__doc__ == "the target's doc" and view.__version__ == "9"


def test_a_view_that_keeps_is_asked_once_and_never_keeps_the_targets_names():
    target = _target()
    view = Keeping(target)
    assert (view.served, view.served, view.reads) == ("ours", "ours", 1)
    assert view.plain == 1
    target.plain = 2  # the target stays the one truth for its own names (a patched module)
    assert view.plain == 2


def test_missing_names_and_dunders_raise_attribute_error():
    view = Counting(_target())
    with pytest.raises(AttributeError, match="no_such"):
        view.no_such
    with pytest.raises(AttributeError):
        ModuleView("no target").__wrapped__


def test_dir_lists_the_views_names_and_own_state_beside_the_targets():
    view = Keeping(_target())
    view._view_set("extra", 1)
    view.served
    assert {"served", "plain", "extra"} <= set(dir(view))


def test_every_module_view_class_derives_from_the_one_base():
    found = []
    for path in (ROOT / "tf1compat").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    ast.unparse(base) in ("types.ModuleType", "ModuleType")
                    for base in node.bases):
                found.append(f"{path.relative_to(ROOT)}:{node.name}")
    # the base itself, and NumPy's view (a module-level __getattr__, for speed: its docstring)
    assert sorted(found) == ["tf1compat/runner/numpy1/view.py:NumPy1Module",
                             "tf1compat/shared/module_view.py:ModuleView"]
