"""NumPy arrays in a pickle that every NumPy reads: NumPy 1.18 under TF 1.15, NumPy 2 under
TF 2.21. A plain pickle of an array names NumPy's private reconstructor (`numpy.core` in
NumPy 1, `numpy._core` in NumPy 2), which the other NumPy lacks; these pickle as
`numpy.reshape(numpy.frombuffer(raw, dtype), shape)`, public functions of both."""

from __future__ import annotations

import numpy as np


class PortableArray:
    """Unpickles as the array (`writable`: a copy, as code that changes it in place needs)."""

    def __init__(self, array: np.ndarray, writable: bool = False):
        self.array = np.ascontiguousarray(array)
        self.writable = writable

    def __reduce__(self):
        view = (np.reshape, (_Buffer(self.array.tobytes(), self.array.dtype.str),
                             self.array.shape))
        return (np.array, (_Call(*view),)) if self.writable else view


class _Buffer:
    def __init__(self, raw: bytes, dtype: str):
        self.raw, self.dtype = raw, dtype

    def __reduce__(self):
        return np.frombuffer, (self.raw, self.dtype)


class _Call:
    """A call made when the pickle is read (its result is the argument of the next one)."""

    def __init__(self, function, arguments: tuple):
        self.function, self.arguments = function, arguments

    def __reduce__(self):
        return self.function, self.arguments
