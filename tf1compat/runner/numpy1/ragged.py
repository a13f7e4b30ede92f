"""`np.array([[1, 2], [3]])` as NumPy 1.18 made it: an object array, where NumPy 2 raises.

NumPy 1.18 gave ragged nested sequences an object array of the inner lists, silently
(1.19 to 1.23 warned, 1.24 on raise ValueError "... inhomogeneous shape after N
dimensions"). NumPy 2 still builds that very array when asked for `dtype=object`, so the
wrapper calls numpy as it is and, on that error only and only where no dtype was given,
builds it again with `dtype=object` and warns once per line of the script, naming the line.
Everything else (a dtype given, a shape error of another kind) raises as NumPy 2 does.
"""

from __future__ import annotations

import functools
import sys
import warnings
from typing import Callable, MutableMapping

import numpy

_RAGGED = "inhomogeneous shape"
MESSAGE = ("a ragged nested sequence became an object array, as NumPy 1 made it (NumPy 2 "
           "raises ValueError; tf1compat run --numpy 1). Pass dtype=object to say so.")


def wrap(make: Callable, made: MutableMapping[str, int], copy_if_needed: bool = False
         ) -> Callable:
    """`make` (numpy.array or numpy.asarray), with NumPy 1's ragged arrays; `made` counts
    them per 'file:line' of the caller. `copy_if_needed` (numpy.array): `copy=False` means what
    it meant in NumPy 1, copy only if needed (NumPy 2's `copy=None`; its `copy=False` raises
    where a copy is needed)."""

    @functools.wraps(make)
    def ragged_aware(obj, dtype=None, *args, **kwargs):
        if copy_if_needed and kwargs.get("copy", True) is False:
            kwargs["copy"] = None
        try:
            return make(obj, dtype, *args, **kwargs)
        except ValueError as error:
            if dtype is not None or _RAGGED not in str(error):
                raise
        result = make(obj, object, *args, **kwargs)
        caller = sys._getframe(1)  # the script's line: only user code gets this function
        where = f"{caller.f_code.co_filename}:{caller.f_lineno}"
        made[where] = made.get(where, 0) + 1
        warnings.warn_explicit(MESSAGE, numpy.exceptions.VisibleDeprecationWarning,
                               caller.f_code.co_filename, caller.f_lineno,
                               module=caller.f_globals.get("__name__"),
                               registry=caller.f_globals.setdefault("__warningregistry__", {}))
        return result

    return ragged_aware
