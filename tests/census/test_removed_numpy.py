"""The count of removed NumPy names and scipy.misc helpers (census/removed_numpy.py)."""

import os

import pytest

from tf1compat.census import removed_numpy, tally

MIRRORS = os.environ.get("TF1COMPAT_CENSUS_MIRRORS")


def test_uses_are_counted_through_the_scripts_own_names_for_numpy_and_scipy():
    source = ("import numpy as N\nimport numpy\nfrom numpy import float as F, zeros\n"
              "import scipy.misc\nfrom scipy import misc as m\nfrom scipy.misc import imsave\n"
              "x = N.zeros(2, dtype=N.float) + numpy.NaN\ny = N.int(F(3))\n"
              "z = N.float32(1) if N.bool(x) else numpy.asscalar(x)\n"
              "a = scipy.misc.imread(p)\nb = m.imresize(a, 50)\nimsave(p, b)\nimsave(q, b)\n"
              "def f():\n    import numpy as np2\n    return np2.object\n")
    counts = dict(removed_numpy.count_source(source).counts)
    # numpy.float: the from-import, N.float and the read of F
    assert counts == {"numpy.float": 3, "numpy.NaN": 1, "numpy.int": 1, "numpy.bool": 1,
                      "numpy.asscalar": 1, "numpy.object": 1, "scipy.misc.imread": 1,
                      "scipy.misc.imresize": 1, "scipy.misc.imsave": 3}
    assert removed_numpy.count_source("print(1 +\n").counts == {}  # no numpy, not parsed


def test_the_committed_counts_are_well_formed_and_most_used_first():
    rows = tally.read_rows(os.path.join(removed_numpy.DATA, removed_numpy.OUTPUT))
    uses = [int(row["uses"]) for row in rows]
    assert uses == sorted(uses, reverse=True) and min(uses) > 0
    assert all(row["name"].split(".")[0] in ("numpy", "scipy") for row in rows)
    assert all(0 < int(row["repositories"]) <= 69 for row in rows)


def test_a_recount_from_the_mirrors_gives_the_committed_counts(tmp_path, monkeypatch):
    if not MIRRORS:
        pytest.skip("TF1COMPAT_CENSUS_MIRRORS is unset: set it to a folder holding the git "
                    "directories of the census repositories (<owner>+<name>/repo) to recount")
    monkeypatch.setattr(removed_numpy, "DATA", str(tmp_path))
    (tmp_path / "repositories.csv").write_text(
        open(os.path.join(os.path.dirname(removed_numpy.__file__), "data",
                          "repositories.csv")).read())
    assert removed_numpy.main(["--mirrors", MIRRORS]) == 0
    committed = os.path.join(os.path.dirname(removed_numpy.__file__), "data",
                             removed_numpy.OUTPUT)
    assert removed_numpy.read(str(tmp_path / removed_numpy.OUTPUT)) == removed_numpy.read(committed)
