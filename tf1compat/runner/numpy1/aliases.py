"""The NumPy 1 names NumPy 2 removed (or gave another meaning), as NumPy 1.18 had them.

One table serves both tools: `run` gives user code each name's NumPy 1.18 value (`value`),
`migrate` rewrites a use to its NumPy 2 spelling (`replacement`, with `{np}` standing for the
script's alias of numpy), or reports it where no spelling means the same (`replacement`
None, `why` says what to do). Names the census counts (census/data/numpy_uses.csv) must all be
here unless NumPy 1.18 lacked them too; tests/runner/test_numpy1_vs_numpy118.py holds that.
"""

from __future__ import annotations

import builtins
import dataclasses
import math
import warnings
from typing import Any, Callable, Optional

import numpy


@dataclasses.dataclass(frozen=True)
class Alias:
    name: str
    value: Callable[[], Any]        # builds NumPy 1.18's object for the name (on first read)
    replacement: Optional[str]      # what migrate writes instead ('float', '{np}.prod')
    why: str = ""                   # for names migrate reports: what to write instead


def _asscalar(a):
    """NumPy 1.18's `np.asscalar(a)`: `a.item()` (removed in NumPy 1.23)."""
    return a.item()


def _asfarray(a, dtype=numpy.float64):
    """NumPy 1.18's `np.asfarray`: an array of an inexact type (float64 unless a float or
    complex dtype is asked for)."""
    if not numpy.issubdtype(dtype, numpy.inexact):
        dtype = numpy.float64
    return numpy.asarray(a, dtype=dtype)


def _in1d(ar1, ar2, assume_unique=False, invert=False):
    """NumPy 1.18's `np.in1d`: `np.isin` of the flattened first argument (always 1-D)."""
    return numpy.isin(numpy.asarray(ar1).ravel(), ar2, assume_unique=assume_unique,
                      invert=invert)


class _Cast(dict):
    """NumPy 1.18's `np.cast`: `np.cast[np.float32](x)` is `np.asarray(x).astype(np.float32)`."""

    def __missing__(self, key):
        kind = numpy.dtype(key).type
        self[key] = lambda x, kind=kind: numpy.asarray(x).astype(kind)
        return self[key]


_KINDS = "buifcO"  # NumPy 1's order of kinds for find_common_type


def _find_common_type(array_types, scalar_types):
    """NumPy 1.18's `np.find_common_type`: the arrays' common type, unless a scalar is of a
    higher kind (then the common type of both)."""
    arrays = [numpy.dtype(t) for t in array_types]
    scalars = [numpy.dtype(t) for t in scalar_types]
    common_array = numpy.result_type(*arrays) if arrays else None
    common_scalar = numpy.result_type(*scalars) if scalars else None
    if common_array is None or common_scalar is None:
        return common_array if common_scalar is None else common_scalar
    if _KINDS.find(common_scalar.kind) > _KINDS.find(common_array.kind):
        return numpy.result_type(common_array, common_scalar)
    return common_array


def _sctypes():
    return {"int": [numpy.int8, numpy.int16, numpy.int32, numpy.int64],
            "uint": [numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64],
            "float": [numpy.float16, numpy.float32, numpy.float64, numpy.longdouble],
            "complex": [numpy.complex64, numpy.complex128, numpy.clongdouble],
            "others": [bool, object, bytes, str, numpy.void]}


def _alias(name, value, replacement, why=""):
    return Alias(name, value, replacement, why)


_TABLE = [
    # The builtins NumPy 1 re-exported (np.float is float; deprecated in 1.20, gone in 1.24;
    # np.bool and np.long came back in NumPy 2 as NumPy's own bool_ and C long).
    *(_alias(name, (lambda kind=kind: kind), kind.__name__) for name, kind in (
        ("bool", builtins.bool), ("int", builtins.int), ("float", builtins.float),
        ("complex", builtins.complex), ("object", builtins.object), ("str", builtins.str),
        ("long", builtins.int), ("unicode", builtins.str))),
    # Constants spelled the old ways.
    *(_alias(name, (lambda value=value: value), spelling) for name, value, spelling in (
        ("NaN", math.nan, "{np}.nan"), ("NAN", math.nan, "{np}.nan"),
        ("Inf", math.inf, "{np}.inf"), ("Infinity", math.inf, "{np}.inf"),
        ("PINF", math.inf, "{np}.inf"), ("infty", math.inf, "{np}.inf"),
        ("NINF", -math.inf, "(-{np}.inf)"), ("PZERO", 0.0, "0.0"), ("NZERO", -0.0, "(-0.0)"))),
    # Type aliases NumPy 2 dropped for the one name it kept.
    *(_alias(name, (lambda kept=kept: getattr(numpy, kept)), f"{{np}}.{kept}")
      for name, kept in (("float_", "float64"), ("complex_", "complex128"),
                         ("cfloat", "complex128"), ("singlecomplex", "complex64"),
                         ("longfloat", "longdouble"), ("clongfloat", "clongdouble"),
                         ("longcomplex", "clongdouble"), ("unicode_", "str_"),
                         ("string_", "bytes_"), ("int0", "intp"), ("uint0", "uintp"),
                         ("bool8", "bool_"), ("object0", "object_"), ("str0", "str_"),
                         ("bytes0", "bytes_"), ("void0", "void"))),
    # Functions NumPy 2 kept under one name.
    *(_alias(name, (lambda kept=kept: getattr(numpy, kept)), f"{{np}}.{kept}")
      for name, kept in (("product", "prod"), ("cumproduct", "cumprod"), ("alltrue", "all"),
                         ("sometrue", "any"), ("round_", "round"), ("trapz", "trapezoid"),
                         ("mat", "asmatrix"))),
    *(_alias(name, (lambda kept=kept: getattr(numpy.exceptions, kept)),
             f"{{np}}.exceptions.{kept}")
      for name, kept in (("VisibleDeprecationWarning", "VisibleDeprecationWarning"),
                         ("ComplexWarning", "ComplexWarning"), ("RankWarning", "RankWarning"),
                         ("AxisError", "AxisError"), ("TooHardError", "TooHardError"),
                         ("ModuleDeprecationWarning", "ModuleDeprecationWarning"))),
    _alias("asscalar", lambda: _asscalar, "{arg}.item()"),  # a call rewrite (migrate's rule)
    # Modules NumPy 1 happened to import at its top.
    _alias("math", lambda: math, None, "import math and use math.X"),
    _alias("warnings", lambda: warnings, None, "import warnings and use warnings.X"),
    # Functions whose NumPy 2 spelling differs in what it returns for some inputs.
    _alias("asfarray", lambda: _asfarray, None,
           "use np.asarray(a, dtype=np.float64), or the float/complex dtype the input has"),
    _alias("in1d", lambda: _in1d, None, "use np.isin(np.ravel(a), b) (in1d is always 1-D)"),
    _alias("cast", lambda: _Cast(), None, "use np.asarray(x).astype(dtype)"),
    _alias("find_common_type", lambda: _find_common_type, None,
           "use np.result_type (it does not separate array and scalar types)"),
    _alias("sctypes", _sctypes, None, "list the types you need (np.sctypes is gone)"),
    _alias("msort", lambda: (lambda a: numpy.sort(a, axis=0)), "{np}.sort({arg}, axis=0)"),
]
ALIASES: dict[str, Alias] = {alias.name: alias for alias in _TABLE}
