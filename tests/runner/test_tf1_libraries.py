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


def _package(site, name, files):
    for relative, source in files.items():
        path = site / name / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return site / name


@pytest.mark.parametrize("source, found", [
    ("from tensorflow.contrib.framework.python.ops import add_arg_scope\n",
     "line 1 uses tensorflow.contrib.framework.python.ops"),
    ("import os\nimport tensorflow.contrib.slim as slim\n", "line 2 uses tensorflow.contrib.slim"),
    ("from tensorflow import contrib\n", "line 1 uses tensorflow.contrib"),
    ("from tensorflow.examples.tutorials.mnist import input_data\n",
     "line 1 uses tensorflow.examples.tutorials.mnist"),
    ("import tensorflow as tf\nslim = tf.contrib.slim\n", "line 2 uses tf.contrib"),
    ("import tensorflow as t\nclass A:\n    layers = t.contrib.layers\n", "line 3 uses t.contrib"),
    # guarded, or run only when called: the library may well load on TF 2
    ("try:\n    from tensorflow.contrib import slim\nexcept ImportError:\n    slim = None\n", None),
    ("import tensorflow as tf\nif tf.__version__ < '2':\n    slim = tf.contrib.slim\n", None),
    ("import tensorflow as tf\ndef f():\n    return tf.contrib.slim\n", None),
    ("import tensorflow as tf\nx = other.contrib.slim  # not tensorflow's\n", None),
    ("# our contributors: see AUTHORS\nimport tensorflow as tf\n", None),
])
def test_tf1_evidence_is_a_tf1_only_path_used_as_the_library_loads(tmp_path, source, found):
    folder = _package(tmp_path, "somelib", {"__init__.py": "", "core.py": source})
    evidence = tf1_libraries.tf1_evidence(str(folder))
    if found is None:
        assert evidence is None
    else:
        assert evidence == f"somelib/core.py {found} as it loads"


def test_tf1_evidence_leaves_out_test_folders(tmp_path):
    folder = _package(tmp_path, "newlib", {
        "__init__.py": "import tensorflow as tf\n",
        "tests/old_test.py": "from tensorflow.contrib import slim\n"})
    assert tf1_libraries.tf1_evidence(str(folder)) is None


def test_a_library_is_taken_once_and_never_one_the_user_kept(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    old = _package(site, "oldlib", {"__init__.py": "import tensorflow.contrib.slim\n",
                                    "layers.py": "import tensorflow as tf\n"})
    kept = _package(site, "keptlib", {"__init__.py": "import tensorflow.contrib.slim\n"})
    new = _package(site, "newlib", {"__init__.py": "import tensorflow as tf\n"})
    monkeypatch.setattr(tf1_libraries, "installed_roots", lambda: [str(site)])
    libraries = tf1_libraries.Tf1Libraries(kept=[str(kept)])
    assert libraries.take_importer(str(old / "__init__.py"))
    assert not libraries.take_importer(str(old / "__init__.py"))  # decided already
    assert not libraries.take_importer(str(old / "layers.py"))  # its package is taken already
    assert libraries.holds(str(old / "layers.py"))
    assert not libraries.take_importer(str(kept / "__init__.py"))
    assert not libraries.take_importer(str(new / "__init__.py"))
    assert not libraries.holds(str(kept / "__init__.py")) and not libraries.holds(str(new))
    assert libraries.roots() == [{"path": str(old), "why": "TF1 library: oldlib/__init__.py "
                                  "line 1 uses tensorflow.contrib.slim as it loads"}]
