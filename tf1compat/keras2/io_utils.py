"""Keras 2's `utils.HDF5Matrix` and `utils.convert_all_kernels_in_model`, which tf_keras dropped.

`HDF5Matrix(path, dataset, start, end, normalizer)` is a read-only window of rows
`[start, end)` of an HDF5 dataset that reads only the rows indexed (a slice, an index, or a
list or array of indices), through `normalizer` when one is given; Keras 2 trained on it in
place of an array too large for memory (`model.fit(x, y, shuffle="batch")`). Each file is
opened once per process and shared by every window on it, as in Keras 2.

`convert_all_kernels_in_model(model)` flips the kernels of a model's convolution layers
between Theano's and TensorFlow's conventions (TF 1.15's `tf.keras.utils` still had it).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.keras2 import V1_KERAS

__all__ = ["HDF5Matrix", "convert_all_kernels_in_model", "convert_kernel"]


class HDF5Matrix:
    """Rows [start, end) of dataset `dataset` of the HDF5 file `datapath`, read on indexing."""

    refs: dict[str, Any] = {}  # path -> the open h5py.File, shared by every window on it

    def __init__(self, datapath: str, dataset: str, start: int = 0, end: Optional[int] = None,
                 normalizer: Optional[Callable] = None):
        try:
            import h5py
        except ImportError:  # TensorFlow depends on h5py: only a broken install lacks it
            raise ImportError(f"HDF5Matrix({datapath!r}, {dataset!r}) reads HDF5 with h5py, a "
                              "requirement of TensorFlow missing from this environment: "
                              "reinstall tensorflow") from None
        if datapath not in self.refs:
            self.refs[datapath] = h5py.File(datapath, "r")
        self.data = self.refs[datapath][dataset]
        self.start = start
        self.end = self.data.shape[0] if end is None else end
        self.normalizer = normalizer
        first = self._normalized(self.data[0:1])
        self._base_shape, self._base_dtype = first.shape[1:], first.dtype

    def _normalized(self, rows):
        return rows if self.normalizer is None else self.normalizer(rows)

    def __len__(self) -> int:
        return self.end - self.start

    def _rows(self, key):
        """The dataset's index for `key`, an index into the window; IndexError past its end."""
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            stop = self.shape[0] if key.stop is None else key.stop
            if stop + self.start > self.end:
                raise IndexError(f"rows {start}:{stop} past the end of {len(self)} rows")
            return slice(start + self.start, stop + self.start)
        if isinstance(key, (int, np.integer)):
            if key + self.start >= self.end:
                raise IndexError(f"row {key} past the end of {len(self)} rows")
            return key + self.start
        keys = np.asarray(key)
        if keys.max() + self.start >= self.end:
            raise IndexError(f"row {keys.max()} past the end of {len(self)} rows")
        return (keys + self.start).tolist()

    def __getitem__(self, key):
        return self._normalized(self.data[self._rows(key)])

    @property
    def shape(self) -> tuple:
        return (self.end - self.start,) + tuple(self._base_shape)

    @property
    def dtype(self):
        return self._base_dtype

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


_CONVOLUTIONS = frozenset({"Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose"})


def convert_kernel(kernel) -> np.ndarray:
    """A convolution kernel (spatial axes, then input and output channels) with its spatial
    axes reversed: Theano's convolution flips the kernel, TensorFlow's does not."""
    kernel = np.asarray(kernel)
    if not 3 <= kernel.ndim <= 5:
        raise ValueError(f"Invalid kernel shape: {kernel.shape} (accepted: 3 to 5 axes, the "
                         "last two the input and output channels)")
    spatial = (slice(None, None, -1),) * (kernel.ndim - 2)
    return np.copy(kernel[spatial + (slice(None), slice(None))])


def convert_all_kernels_in_model(model) -> None:
    """Flips (Theano <-> TensorFlow) the kernels of every convolution layer of `model`."""
    backend = importlib.import_module(f"{V1_KERAS}.backend")
    flipped = [(layer.kernel, convert_kernel(backend.get_value(layer.kernel)))
               for layer in model.layers if type(layer).__name__ in _CONVOLUTIONS]
    backend.batch_set_value(flipped)
