"""Finding the TF 1.15 reference: the variable, the cache, a skip that says how to get one, and
a failure instead of a skip under CI."""

import pytest

import tf1_reference


@pytest.fixture()
def no_reference(monkeypatch, tmp_path):
    for name in ("TF1COMPAT_TF1_REFERENCE_PYTHON", "CI", "TF1COMPAT_REQUIRE_TF1_REFERENCE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TF1COMPAT_TF1_REFERENCE_DIR", str(tmp_path / "cache"))
    return monkeypatch


def test_without_a_reference_the_tests_skip_saying_how_to_get_one(no_reference):
    assert tf1_reference.reference_python() is None
    with pytest.raises(pytest.skip.Exception, match="tests/tf1_reference/setup.sh"):
        tf1_reference.require()


@pytest.mark.parametrize("variable", ["CI", "TF1COMPAT_REQUIRE_TF1_REFERENCE"])
def test_under_ci_a_missing_reference_fails(no_reference, variable):
    no_reference.setenv(variable, "true" if variable == "CI" else "1")
    with pytest.raises(pytest.fail.Exception, match="required under CI"):
        tf1_reference.require()


def test_the_variable_and_the_cache_are_found(no_reference, tmp_path):
    cached = tmp_path / "cache" / "bin" / "python"
    cached.parent.mkdir(parents=True)
    cached.write_text("")
    assert tf1_reference.require() == cached
    no_reference.setenv("TF1COMPAT_TF1_REFERENCE_PYTHON", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="TF1COMPAT_TF1_REFERENCE_PYTHON="):
        tf1_reference.reference_python()


def test_setup_names_what_it_needs_when_no_python_fits(tmp_path):
    import subprocess

    result = subprocess.run(["bash", str(tf1_reference.SETUP)], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                 "TF1COMPAT_TF1_PYTHON": "/usr/bin/false"})
    assert result.returncode != 0
    assert "TF1COMPAT_TF1_PYTHON=/usr/bin/false is not a Python 3.5-3.7" in result.stderr
