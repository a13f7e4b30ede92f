"""An installed library that is TF1 code fails at a TF1 name; the report names the flag."""

import pytest

from tf1compat.runner import bootstrap, tf1_libraries


@pytest.mark.parametrize("error, tf1", [
    (ModuleNotFoundError("No module named 'tensorflow.contrib'", name="tensorflow.contrib"), True),
    (ModuleNotFoundError("x", name="tensorflow.contrib.framework.python.ops"), True),
    (ModuleNotFoundError("No module named 'gym'", name="gym"), False),
    (AttributeError("module 'tensorflow' has no attribute 'get_variable'"), True),
    (AttributeError("module 'tensorflow.compat.v2.nn' has no attribute 'rnn_cell'"), True),
    (AttributeError("'NoneType' object has no attribute 'shape'"), False),
])
def test_tf1_name_errors(error, tf1):
    assert tf1_libraries.is_tf1_name_error(error) is tf1


def _raised_in(path, error):
    code = compile(f"raise {error}", str(path), "exec")
    try:
        exec(code, {})
    except BaseException as raised:  # noqa: BLE001
        return raised
    raise AssertionError("nothing raised")


def test_the_cause_names_the_librarys_folder_for_user_root(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "oldlib").mkdir(parents=True)
    monkeypatch.setattr(tf1_libraries, "installed_roots", lambda: [str(tmp_path), str(site)])
    error = _raised_in(site / "oldlib" / "layers.py",
                       "ModuleNotFoundError('no', name='tensorflow.contrib')")
    cause = bootstrap.tf1_library_cause(error, lambda filename: False)
    assert cause is not None
    assert f"--user-root {site / 'oldlib'}" in cause and "installed library oldlib" in cause


def test_no_cause_for_user_code_or_other_errors(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    (site / "oldlib").mkdir(parents=True)
    monkeypatch.setattr(tf1_libraries, "installed_roots", lambda: [str(site)])
    in_library = site / "oldlib" / "layers.py"
    contrib = "ModuleNotFoundError('no', name='tensorflow.contrib')"
    assert bootstrap.tf1_library_cause(_raised_in(in_library, contrib), lambda f: True) is None
    assert bootstrap.tf1_library_cause(_raised_in(in_library, "ValueError('x')"),
                                       lambda f: False) is None
    assert bootstrap.tf1_library_cause(_raised_in(tmp_path / "script.py", contrib),
                                       lambda f: False) is None
