"""NumPy 1's conversion of a one-element array to a Python scalar, for `run --numpy 1`.

TF1 scripts turn what `sess.run` returned into numbers with `float(w)`, `int(step)` and
`"loss %f" % loss`, where the value is often a one-element array (a `[1]`-shaped weight, a
`[1, 1]` product). NumPy 1 converted any size-1 array; NumPy 2.4 raises `TypeError: only
0-dimensional arrays can be converted to Python scalars`. The array comes from TensorFlow,
not from the script's numpy, so the names view cannot help: the conversion itself is
NumPy's type slot (`nb_float`, `nb_int`), which `float()`, `int()` and `%`-formatting call
directly and a static type does not let Python reassign.

The change therefore goes one level down, the way CPython itself dispatches to a method
defined in Python: `ndarray`'s slot is set to CPython's generic slot function (the one every
class with a Python `__float__` has), and `ndarray.__float__` in its type dict to a
function that converts a size-1 array through its 0-d view and hands anything else to
NumPy's own conversion (so a larger array raises NumPy's error as before). Subclasses made
before the change (`np.matrix`, `np.memmap`) that inherited NumPy's slot are changed alike.
Layout checks on the type object come first; where one fails (not CPython, another object
layout) nothing is written and the report says size-1 arrays stay NumPy 2's.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import sysconfig
from typing import Any, Callable, Optional

# PyTypeObject's pointer-sized fields, in order, up to tp_as_number (CPython 3.8 to 3.13,
# with the GIL); PyNumberMethods' nb_int and nb_float.
_TP_NAME, _TP_BASICSIZE, _TP_AS_NUMBER = 3, 4, 12
_NB_SLOT_INDEX = {"__int__": 16, "__float__": 18}
_WORD = ctypes.sizeof(ctypes.c_void_p)


def _word(address: int) -> ctypes.c_void_p:
    return ctypes.c_void_p.from_address(address)


def _number_methods(cls: type) -> int:
    return _word(id(cls) + _TP_AS_NUMBER * _WORD).value or 0


def _slot_address(cls: type, method: str) -> int:
    return _number_methods(cls) + _NB_SLOT_INDEX[method] * _WORD


class _PythonFloat:
    def __float__(self) -> float:
        return 0.0

    def __int__(self) -> int:
        return 0


class _OtherPythonFloat(_PythonFloat):
    __float__ = _PythonFloat.__float__
    __int__ = _PythonFloat.__int__


def layout_problem(ndarray: type) -> Optional[str]:
    """Why the type objects cannot be changed safely here; None when they can."""
    if sys.implementation.name != "cpython":
        return f"{sys.implementation.name} is not CPython"
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return "a free-threaded CPython lays type objects out differently"
    if ctypes.c_ssize_t.from_address(id(ndarray) + _TP_BASICSIZE * _WORD).value \
            != ndarray.__basicsize__:
        return "numpy.ndarray's type object is not laid out as CPython 3.8-3.13 lays it out"
    name = ctypes.c_char_p.from_address(id(ndarray) + _TP_NAME * _WORD).value or b""
    if name.decode(errors="replace") != "numpy.ndarray":
        return "numpy.ndarray's type name is not where CPython keeps it"
    for method in _NB_SLOT_INDEX:
        generic = _word(_slot_address(_PythonFloat, method)).value
        if not generic or generic != _word(_slot_address(_OtherPythonFloat, method)).value:
            return f"CPython's generic {method} slot is not where expected"
        if not _word(_slot_address(ndarray, method)).value:
            return f"numpy.ndarray has no {method} slot"
    return None


def _converter(ndarray: type, numpy_own: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def convert(array: Any) -> Any:
        if array.ndim and array.size == 1:
            # as a plain array: a subclass may keep its rank (np.matrix is always 2-D)
            return numpy_own(array.view(ndarray).reshape(()))
        return numpy_own(array)

    convert.__qualname__ = convert.__name__ = numpy_own.__name__
    convert.__doc__ = ("A size-1 array converts as NumPy 1 converted it (tf1compat run "
                       "--numpy 1); anything else as NumPy converts it.")
    return convert


def _subclasses_sharing(ndarray: type, method: str, slot: int) -> list[type]:
    found, pending = [], list(type.__subclasses__(ndarray))
    while pending:
        cls = pending.pop()
        pending.extend(type.__subclasses__(cls))
        if method not in vars(cls) and _word(_slot_address(cls, method)).value == slot:
            found.append(cls)
    return found


def change() -> tuple[Optional[str], Callable[[], None]]:
    """The registry's change "numpy.size-one-scalars": (None when made, else why not; undo)."""
    import numpy

    ndarray = numpy.ndarray
    try:
        float(numpy.zeros(1))
        return "NumPy converts size-1 arrays itself", lambda: None
    except TypeError:
        pass
    problem = layout_problem(ndarray)
    if problem:
        return problem, lambda: None
    type_dict = gc.get_referents(vars(ndarray))[0]
    written: list[tuple[int, Optional[int]]] = []
    own = {method: type_dict[method] for method in _NB_SLOT_INDEX}
    for method, numpy_own in own.items():
        slot = _word(_slot_address(ndarray, method)).value
        generic = _word(_slot_address(_PythonFloat, method)).value
        for cls in [ndarray, *_subclasses_sharing(ndarray, method, slot)]:
            written.append((_slot_address(cls, method), slot))
            _word(_slot_address(cls, method)).value = generic
        type_dict[method] = _converter(ndarray, numpy_own)
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(ndarray))

    def undo() -> None:
        type_dict.update(own)
        for address, value in written:
            _word(address).value = value
        ctypes.pythonapi.PyType_Modified(ctypes.py_object(ndarray))

    return None, undo
