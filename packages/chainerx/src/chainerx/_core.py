"""``chainerx._core``, the module name of v7's compiled core: here the entry point that
views memory another library owns (``_fromrawpointer``, used to share CuPy arrays)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from chainerx import _dtypes
from chainerx._array import make, ndarray
from chainerx._device import resolve
from chainerx._errors import ChainerxError


class _HostView:
    """NumPy's array interface over host memory at an address; it keeps *owner* alive."""

    def __init__(self, address: int, shape: tuple[int, ...], dtype: numpy.dtype,
                 strides: tuple[int, ...], owner: Any) -> None:
        self.owner = owner
        self.__array_interface__ = {
            'version': 3, 'shape': shape, 'typestr': dtype.str, 'descr': dtype.descr,
            'strides': strides, 'data': (address, False)}


def _span(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> int:
    """Bytes from the first element to past the last one the view reaches along its
    positive strides (elements along negative strides lie before the first)."""
    if 0 in shape:
        return 0
    return itemsize + sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0)


def _fromrawpointer(ptr: int, shape: Sequence[int], dtype: Any, strides: Sequence[int],
                    device: Any, offset: int, base: Any) -> ndarray:
    """An array over the memory at address *ptr* (its first element *offset* bytes
    further) with *shape*, *dtype* and *strides* (bytes), on *device*; *base*, the
    memory's owner, is kept alive while the array lives. Writes go to that memory.

    Raises:
        ChainerxError: on a ``cuda`` device, when *ptr* is not device memory of that GPU.
    """
    dev = resolve(device)
    dt = _dtypes.to_dtype(dtype)
    shape_ = tuple(int(n) for n in shape)
    strides_ = tuple(int(s) for s in strides)
    if len(shape_) != len(strides_):
        raise ChainerxError(f'{len(shape_)} axes but {len(strides_)} strides')
    if dev.backend.name != 'cuda':
        view = _HostView(int(ptr) + int(offset), shape_, dt, strides_, base)
        return make(numpy.asarray(view), dev)
    cupy = dev.xp
    runtime = cupy.cuda.runtime
    try:
        attrs = runtime.pointerGetAttributes(int(ptr))
        on_device = attrs.type == runtime.memoryTypeDevice and attrs.device == dev.index
    except runtime.CUDARuntimeError:
        on_device = False
    if not on_device:
        raise ChainerxError(f'address {ptr:#x} is not memory of {dev.name}')
    size = int(offset) + _span(shape_, strides_, dt.itemsize)
    memory = cupy.cuda.UnownedMemory(int(ptr), size, base, dev.index)
    with dev._scope():
        data = cupy.ndarray(shape_, dt, cupy.cuda.MemoryPointer(memory, int(offset)),
                            strides=strides_)
    return make(data, dev)
