"""A TF1-era script's NumPy 1 habits: the names NumPy 2 removed, ragged arrays, printed scalars.

Run as `python numpy1_traps.py NAME...`: it prints one line per trap, then, for each NAME,
whether numpy has it. Under NumPy 1.18 (the TF 1.15 reference) and under `tf1compat run`
it prints the same text; migrated, under NumPy 2, the same numbers where migrate converts.
A trap that raises prints the error's type (a name migrate leaves to the user, under NumPy 2).
"""

import sys
import warnings

import numpy as np


def probe(label, make):
    try:
        value = make()
    except AttributeError as error:  # migrated, under NumPy 2: a name migrate left as it was
        print(label, "raised", type(error).__name__)
        return
    print(label, repr(value))


# The builtins NumPy 1 re-exported, in arithmetic, calls and dtype= arguments.
probe("float", lambda: (np.float(3) / 2, np.float("2.5") * 2))
probe("int", lambda: (np.int(7.9) + 1, 7 // np.int(2)))
probe("bool", lambda: (np.bool(0), np.bool([1]), isinstance(True, np.bool)))
probe("object", lambda: np.object)
probe("str", lambda: np.str(12) + "a")
probe("dtypes", lambda: [np.zeros(2, dtype=t).dtype.str
                         for t in (np.float, np.int, np.bool, np.object, np.str)])
probe("astype", lambda: np.arange(3).astype(np.float) * 1.5)
probe("astype int", lambda: (np.array([1.7, -2.2]).astype(np.int) * 3).tolist())
# Constants and functions under their old names.
probe("NaN", lambda: (np.isnan(np.NaN), np.nansum([1.0, np.NaN])))
probe("Inf", lambda: (np.Inf > 1e308, -np.Inf, np.infty == np.Inf))
probe("asscalar", lambda: np.asscalar(np.array([2.5])) * 2)
probe("asscalar type", lambda: type(np.asscalar(np.float32(1.25) + 1)).__name__)
probe("product", lambda: (np.product([1, 2, 3, 4]), np.product(np.ones((2, 3)), axis=0)))
probe("cast", lambda: np.cast[np.float32]([1, 2]))
probe("asfarray", lambda: (np.asfarray([1, 2]), np.asfarray([3], dtype=np.int32).dtype))
probe("in1d", lambda: np.in1d([[1, 2], [3, 4]], [2, 3]))
probe("find_common_type", lambda: (np.find_common_type([np.float32], [np.int64, np.float64]),
                                   np.find_common_type([np.int8], [np.float64])))
probe("sctypes", lambda: {kind: [np.dtype(t).name for t in types]
                          for kind, types in sorted(np.sctypes.items())})
probe("math", lambda: np.math.sqrt(16.0) + np.math.pi)
probe("warnings", lambda: np.warnings is warnings)
# Ragged nested sequences: an object array of the inner lists.
probe("ragged", lambda: np.array([[1, 2], [3]]))
probe("ragged shape", lambda: (np.array([[[1, 2], [3]], [[4, 5], [6]]]).shape,
                               np.asarray([[1.0], [2.0, 3.0]]).dtype))
# Scalars and arrays as a training loop prints them.
probe("scalars", lambda: [np.float32(1.5), np.int64(15), np.float64(0.1), np.bool_(True)])
probe("loss dict", lambda: {"loss": np.float32(0.25), "step": np.int32(3)})
probe("array", lambda: np.array([1.5, 2.0], dtype=np.float32))
probe("reductions", lambda: (np.mean([1, 2, 4]), np.sum(np.arange(5)), np.argmax([3, 9, 2])))
print("str", np.float32(1.5), np.int32(15), np.arange(6).reshape(2, 3) / 4)
for name in sys.argv[1:]:
    print("has", name, hasattr(np, name))
