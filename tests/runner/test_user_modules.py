"""The import hook's seam for modules user code gets in place of installed ones."""

import json
import os
import types

import pytest

from tf1compat.runner import shim, user_modules


@pytest.fixture
def hook(tmp_path):
    return shim.ImportHook(types.ModuleType("tf1"), [str(tmp_path)])


@pytest.fixture
def served_json():
    calls = []
    served = types.ModuleType("json")

    def importer(name, fromlist, original):
        calls.append((name, tuple(fromlist)))
        return served if name == "json" else original()

    user_modules.register("json", importer)
    yield served, calls
    user_modules.unregister("json")


def test_user_code_gets_the_registered_module_and_libraries_the_installed_one(
        hook, served_json, tmp_path):
    served, calls = served_json
    user = {"__file__": str(tmp_path / "train.py")}
    library = {"__file__": json.__file__}
    assert hook("json", user) is served
    assert hook("json", library) is json
    assert calls == [("json", ())]


def test_submodules_and_from_imports_reach_the_importer_with_their_fromlist(
        hook, served_json, tmp_path):
    served, calls = served_json
    user = {"__file__": str(tmp_path / "train.py")}
    decoder = hook("json.decoder", user, None, ("JSONDecoder",))
    assert decoder.JSONDecoder is json.decoder.JSONDecoder  # `original()` did the real import
    assert calls == [("json.decoder", ("JSONDecoder",))]


def test_a_name_that_is_not_a_top_level_module_is_refused_with_what_is_accepted():
    with pytest.raises(ValueError, match=r"top='keras.layers'.*identifier"):
        user_modules.register("keras.layers", lambda *args: None)
    assert "keras.layers" not in user_modules.registered()


def test_a_user_root_inside_tf1compat_leaves_tf1compat_a_library(tmp_path):
    """`launch` puts tf1compat/launch/task_site on each task's PYTHONPATH (a user root): the
    project's own modules must still get the real tensorflow."""
    import tf1compat.launch

    task_site = os.path.join(os.path.dirname(tf1compat.launch.__file__), "task_site")
    hook = shim.ImportHook(types.ModuleType("tf1"), [task_site, str(tmp_path)])
    assert not hook.is_user_file(shim.__file__)
    assert hook.is_user_file(str(tmp_path / "train.py"))
