"""NumPy 1's `np.lib.pad` and the other functions its `numpy.lib` re-exported: under run, served;
after migrate, written as NumPy 2's `np.pad`. `np.lib`'s submodules stay NumPy 2's."""

import numpy

from tf1compat.migrate.driver import apply_rules
from tf1compat.runner.numpy1 import view


def test_the_view_serves_np_lib_pad_and_keeps_the_submodules():
    usage = view.Usage()
    np1 = view.NumPy1Module(numpy, usage)
    assert np1.lib.pad is numpy.pad
    assert np1.lib.stride_tricks is numpy.lib.stride_tricks
    assert usage.names["lib.pad"] == 1
    assert view.lib_name_moved(numpy, "pad") and not view.lib_name_moved(numpy, "stride_tricks")


def test_migrate_writes_np_pad():
    code = "import numpy as np\nx = np.lib.pad(a, 2, 'constant')\ny = np.lib.stride_tricks\n"
    migrated, findings = apply_rules(code, "tf1compat")
    assert "x = np.pad(a, 2, 'constant')" in migrated and "y = np.lib.stride_tricks" in migrated
    assert any("np.lib.pad -> np.pad" in f.message for f in findings)
