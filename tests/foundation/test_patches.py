"""One registry for every run-time change of another library or of Python
(`tf1compat.shared.patches`, declared in `tf1compat.shared.patch_table`):

- a change is made once, and a block of changes all stands or is all undone;
- an undeclared change is refused; every direct change in the code belongs to a declared
  patch's installer;
- every declared target is present in the installed libraries, and taking one away is
  reported by name (`tf1compat doctor`), as are other libraries' private names;
- under `tf1compat run` the run's patches are in the registry, and installing again changes
  nothing.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest
from internals_absent import entries, make_absent
from isolated import REPO_ROOT, python_env

from tf1compat.cli import doctor_patches
from tf1compat.shared import patches
from tf1compat.shared.library_internal_table import DECLARED as LIBRARY_INTERNALS
from tf1compat.shared.patch_table import PATCHES
from tf1compat.shared.tf_internal_table import TfInternal

from .patch_sites import all_sites

ROOT = Path(__file__).resolve().parents[2]
# A declared key this process never installs otherwise: the mechanics are tried on it.
KEY = "keras.reduce-per-replica"


@pytest.fixture
def free_key():
    assert not patches.is_installed(KEY)
    yield KEY
    patches.undo(KEY)


def test_a_change_is_made_once_and_undone_to_what_was_there(free_key):
    owner = types.SimpleNamespace(reduce=lambda: "original")
    made = []

    def wrap(original):
        made.append(original)
        return lambda: ("wrapped", original())

    first = patches.replace_attribute(free_key, owner, "reduce", wrap)
    second = patches.replace_attribute(free_key, owner, "reduce", wrap)
    assert first is second and len(made) == 1
    assert owner.reduce() == ("wrapped", "original")
    assert [patch.key for patch in patches.installed()].count(free_key) == 1
    assert patches.undo(free_key) and not patches.undo(free_key)
    assert owner.reduce() == "original"
    patches.replace_attribute(free_key, owner, "new_name", lambda original: "added")
    assert owner.new_name == "added"
    patches.undo(free_key)
    assert not hasattr(owner, "new_name")


def test_a_block_that_fails_leaves_none_of_its_changes(free_key):
    owner = types.SimpleNamespace(reduce="before")
    with pytest.raises(RuntimeError, match="second change failed"):
        with patches.all_or_nothing():
            patches.replace_attribute(free_key, owner, "reduce", lambda original: "after")
            assert owner.reduce == "after"
            raise RuntimeError("second change failed")
    assert owner.reduce == "before" and not patches.is_installed(free_key)


def test_blocks_inside_blocks_close_and_a_failure_outside_undoes_both(free_key):
    # Opened together, the two blocks' lists of changes are equal: the inner one must close
    # by identity, or the outer one's later changes are kept in the wrong list.
    later = "numpy.size-one-scalars"  # made here as a change that does nothing
    assert not patches.is_installed(later)
    owner = types.SimpleNamespace(reduce="before")
    undone = []
    with pytest.raises(RuntimeError, match="after the inner block"):
        with patches.all_or_nothing():
            with patches.all_or_nothing():
                patches.replace_attribute(free_key, owner, "reduce", lambda original: "after")
            patches.apply(later, lambda: (None, lambda: undone.append(later)))
            assert owner.reduce == "after"
            raise RuntimeError("after the inner block")
    assert owner.reduce == "before" and not patches.is_installed(free_key)
    assert undone == [later] and not patches.is_installed(later)


def test_an_undeclared_change_is_refused_by_name():
    with pytest.raises(patches.UndeclaredPatchError, match="'tf.something-new' is not "
                                                           "declared"):
        patches.apply("tf.something-new", lambda: (None, lambda: None))


def test_every_direct_change_belongs_to_a_declared_installer():
    # the registry itself, whose helpers make only declared changes (see the refusal above)
    installers = " ".join([patch.installed_by for patch in PATCHES] + [patches.__name__])
    strays = [str(site) for site in all_sites(ROOT)
              if site.module not in installers and site.path not in installers
              and not site.change.startswith("sys.argv")]
    assert not strays, ("changes of another library made outside a declared patch's "
                        "installer (declare them in tf1compat/shared/patch_table.py and make "
                        "them through tf1compat.shared.patches):\n" + "\n".join(strays))


def test_the_site_finder_finds_each_kind_of_change(tmp_path):
    (tmp_path / "tf1compat").mkdir()
    (tmp_path / "tf1compat" / "sneaky.py").write_text(
        "import builtins, sys\nimport tensorflow as tf\nfrom keras.src import trainer\n"
        "tf.Session.run = None\nsetattr(trainer, 'x', 1)\nbuiltins.open = None\n"
        "sys.meta_path.insert(0, object())\nsys.modules['numpy'] = None\n")
    assert sorted((site.line, site.change) for site in all_sites(tmp_path)) == [
        (4, "tf.Session.run"), (5, "setattr(trainer, ...)"), (6, "builtins.open"),
        (7, "sys.meta_path.insert"), (8, "sys.modules['numpy']")]


def test_only_the_import_hook_assigns_builtins_import():
    assigning = {site.path for site in all_sites(ROOT) if site.change == "builtins.__import__"}
    assert assigning == {"tf1compat/runner/shim.py"}


@pytest.mark.parametrize("patch", [p for p in PATCHES if not p.elsewhere],
                         ids=lambda patch: patch.key)
def test_each_declared_target_is_present_and_checked_on_this_version(patch):
    assert patches.absent(patch) is None
    row = {row["key"]: row for row in doctor_patches.patches_status()}[patch.key]
    assert row["absent"] == []
    assert row["installed"].startswith(tuple(patch.checked_on)), \
        f"{patch.key}: checked on {patch.checked_on}, installed {row['installed']}"


TAKEABLE = [p for p in PATCHES if p.attribute and p.owner != "python"]  # builtins stay


@pytest.mark.parametrize("patch", TAKEABLE, ids=lambda patch: patch.key)
def test_a_target_taken_away_is_reported_by_name(monkeypatch, patch):
    module_name, _, path = patch.attribute.partition(":")
    make_absent(monkeypatch, TfInternal(module_name, (path,), "", "", ""), path)
    row = {row["key"]: row for row in doctor_patches.patches_status()}[patch.key]
    assert any(f"{module_name}.{path}" in entry for entry in row["absent"]), row["absent"]


@pytest.mark.parametrize("internal", LIBRARY_INTERNALS, ids=lambda internal: internal.module)
def test_each_private_name_of_another_library_is_present(internal):
    row = {row["names"]: row for row in doctor_patches.library_internals_status()}[
        internal.label]
    assert row["ok"], row["absent"]


@pytest.mark.parametrize("internal, name, instance", [
    (internal, name, instance) for internal in LIBRARY_INTERNALS if not internal.prepare
    for name, instance in entries(internal)], ids=str)
def test_a_private_name_of_another_library_taken_away_is_reported_by_name(
        monkeypatch, internal, name, instance):
    make_absent(monkeypatch, internal, name, instance)
    row = {row["names"]: row for row in doctor_patches.library_internals_status()}[
        internal.label]
    assert not row["ok"] and any(f"{internal.module}.{name}" in entry
                                 for entry in row["absent"]), row["absent"]


def _python(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=300, cwd=str(REPO_ROOT), env=python_env())


INSTALLED_UNDER_RUN = """
import builtins, json, sys
import tensorflow as tf
from tf1compat.runner import shim, tf_patches
from tf1compat.shared import patches
hook, init = builtins.__import__, tf.compat.v1.Session.__init__
shim.install([], legacy_keras=False)
tf_patches.hide_runner_frames()
again = builtins.__import__ is hook and tf.compat.v1.Session.__init__ is init
print(json.dumps({"keys": sorted(p.key for p in patches.installed()), "same": again}))
"""


def test_under_run_the_runs_patches_are_in_the_registry_and_made_once(tmp_path):
    import json

    script = tmp_path / "installed.py"
    script.write_text(INSTALLED_UNDER_RUN)
    result = _python("-m", "tf1compat.cli.main", "run", str(script))
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["same"] is True
    assert {"tf.session-init", "python.import-hook", "tf.node-error-message",
            "tf.benchmarks-main"} <= set(found["keys"])


LOADS_THE_ESTIMATOR = """
import builtins, json
original = builtins.__import__
import tf1compat.estimator as estimator
estimator.RunConfig(model_dir=None)
from tf1compat.shared import patches
print(json.dumps({"import_untouched": builtins.__import__ is original,
                  "keys": sorted(p.key for p in patches.installed())}))
"""


def test_the_estimator_loads_without_touching_the_global_import():
    import json

    result = _python("-c", LOADS_THE_ESTIMATOR)
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["import_untouched"] is True
    assert {"tf.estimator-api", "tf.estimator-stand-ins", "python.estimator-finder"} <= \
        set(found["keys"])



SLIM_MADE_AND_UNDONE = """
import importlib, json
layers = importlib.import_module("tf_slim.layers.layers")
arg_scope = importlib.import_module("tf_slim.ops.arg_scope")
before = (arg_scope._ARGSTACK, arg_scope._DECORATED_OPS, layers.normalization_layers)
keyed_before = sorted(name for name in dir(layers)
                      if hasattr(getattr(layers, name), "_key_op"))
from tf1compat.contrib import tf_slim_compat
from tf1compat.shared import patches
tf_slim_compat.load()
made = sorted(p.key for p in patches.installed() if p.key.startswith("tf_slim."))
changed = [a is not b for a, b in zip(before, (arg_scope._ARGSTACK, arg_scope._DECORATED_OPS,
                                                 layers.normalization_layers))]
for key in reversed(made):
    patches.undo(key)
after = (arg_scope._ARGSTACK, arg_scope._DECORATED_OPS, layers.normalization_layers)
keyed_after = sorted(name for name in dir(layers) if hasattr(getattr(layers, name), "_key_op"))
print(json.dumps({"made": made, "changed": changed,
                  "restored": all(a is b for a, b in zip(before, after)),
                  "keys_restored": keyed_before == keyed_after}))
"""


def test_tf_slims_changes_are_made_through_the_registry_and_undone_whole():
    import json

    result = _python("-c", SLIM_MADE_AND_UNDONE)
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"tf_slim.normalization-view", "tf_slim.private-module-views",
            "tf_slim.shared-arg-scope"} <= set(found["made"])
    assert found["changed"] == [True, True, True]
    assert found["restored"] and found["keys_restored"]
