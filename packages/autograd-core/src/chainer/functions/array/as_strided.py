"""Strided views of an array's storage, with gradients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import as_int, as_int_tuple
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray

Geometry = tuple[tuple[int, ...], tuple[int, ...], int]  # shape, strides, offset (elements)


def _data_ptr(a: Any) -> int:
    if isinstance(a, numpy.ndarray):
        return a.__array_interface__['data'][0]
    return a.data.ptr


def _root(a: Any) -> Any:
    """The last array in the chain of ``.base`` of ``a``: the one that holds its memory."""
    ndarray = backend.get_array_module(a).ndarray
    root = a
    b = a.base
    while b is not None:
        if isinstance(b, ndarray):
            root = b
        b = getattr(b, 'base', None)
    return root


def _own_storage(a: Any) -> tuple[Any, Geometry]:
    flat = backend.get_array_module(a).ascontiguousarray(a).reshape(-1)
    strides = []
    step = 1
    for n in reversed(a.shape):
        strides.append(step)
        step *= n
    return flat, (a.shape, tuple(reversed(strides)), 0)


def _storage(a: Any) -> tuple[Any, Geometry]:
    """The memory ``a`` lives in, as a 1-D array of its dtype, and the geometry of ``a`` in it.

    The storage is the memory of the array that owns the data of ``a`` (the end
    of its chain of bases), so views of one array share one storage. An array
    whose memory cannot be read that way (e.g. of another itemsize) is its own
    storage, in C order.
    """
    root = _root(a)
    item = a.itemsize
    if a.size == 0 or not (root.flags.c_contiguous or root.flags.f_contiguous) \
            or root.nbytes % item:
        return _own_storage(a)
    flat = root.reshape(-1, order='F' if root.flags.f_contiguous
                        and not root.flags.c_contiguous else 'C')
    if flat.dtype != a.dtype:
        flat = flat.view(a.dtype)
    offset = _data_ptr(a) - _data_ptr(flat)
    if offset % item or any(s % item for s in a.strides):
        return _own_storage(a)
    return flat, (a.shape, tuple(s // item for s in a.strides), offset // item)


def _extent(geometry: Geometry) -> tuple[int, int]:
    """The lowest and highest element index a (non-empty) geometry reaches."""
    shape, strides, offset = geometry
    low = offset + sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    high = offset + sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    return low, high


def _view(flat: Any, geometry: Geometry) -> Any:
    """The view of the 1-D contiguous ``flat`` with the given geometry (in elements)."""
    shape, strides, offset = geometry
    xp = backend.get_array_module(flat)
    if 0 in shape:
        return flat[:0].reshape(shape)
    low, high = _extent(geometry)
    if low < 0 or high >= flat.size:
        raise ValueError(
            f'as_strided: shape {shape}, strides {strides} and storage offset {offset} reach '
            f'elements {low}..{high}, outside the storage of {flat.size} elements')
    stride_tricks = numpy.lib.stride_tricks if xp is numpy else xp.lib.stride_tricks
    return stride_tricks.as_strided(flat[offset:], shape,
                                    tuple(s * flat.itemsize for s in strides))


def _stride_array(array: Any, shape: tuple[int, ...], strides: tuple[int, ...],
                  storage_offset: int) -> Any:
    """The view of the storage of ``array`` with ``shape``, element ``strides`` and offset.

    Raises:
        ValueError: when the view would reach outside the storage.
    """
    flat, _ = _storage(array)
    return _view(flat, (tuple(shape), tuple(strides), storage_offset))


def _positions(xp: Any, geometry: Geometry) -> Any:
    """The storage index of every element of a geometry, as an int array of its shape."""
    shape, strides, offset = geometry
    pos = xp.full(shape, offset, dtype=numpy.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        step = xp.arange(n, dtype=numpy.int64) * s
        pos += step.reshape((n,) + (1,) * (len(shape) - axis - 1))
    return pos


def _may_overlap(geometry: Geometry) -> bool:
    """False when no two elements of the geometry share a storage index (a sufficient test)."""
    reach = 0
    for n, s in sorted((n, abs(s)) for n, s in zip(*geometry[:2]) if n > 1):
        if s <= reach:
            return True
        reach += s * (n - 1)
    return False


class AsStrided(FunctionNode):
    """A view of the storage of ``x`` with the given shape, strides and offset."""

    def __init__(self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> None:
        self.shape = shape
        self.strides = strides
        self.storage_offset = offset

    @property
    def label(self) -> str:
        return 'AsStrided'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        flat, self._in_geometry = _storage(x)
        return _view(flat, (self.shape, self.strides, self.storage_offset)),

    def storage_positions(self) -> tuple[NdArray, NdArray]:
        """After forward: the storage index of every element of the input (in its shape)
        and of every element of the view (in the view's shape), as NumPy int64 arrays;
        the view's element at ``i`` reads the input's element stored at that index (for
        exporters that express the view as a gather)."""
        return (_positions(numpy, self._in_geometry),
                _positions(numpy, (tuple(self.shape), tuple(self.strides),
                                   self.storage_offset)))

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        xp = backend.get_array_module(gy.array)
        out_geometry = (self.shape, self.strides, self.storage_offset)
        return StorageMap(*_grad_map(xp, self._in_geometry, out_geometry)).apply((gy,))


def _grad_map(xp: Any, in_geometry: Geometry, out_geometry: Geometry) -> tuple[Any, ...]:
    """The arguments of the :class:`StorageMap` that takes a view's gradient to its input."""
    in_pos = _positions(xp, in_geometry)
    out_pos = _positions(xp, out_geometry)
    low = min([int(p.min()) for p in (in_pos, out_pos) if p.size], default=0)
    in_pos -= low
    out_pos -= low
    size = max([int(p.max()) + 1 for p in (in_pos, out_pos) if p.size], default=0)
    counts = None
    if _may_overlap(in_geometry):
        counts = xp.bincount(in_pos.reshape(-1), minlength=size)
        counts = xp.maximum(counts, 1) if int(counts.max()) > 1 else None
    return out_pos, in_pos, size, counts


class StorageMap(FunctionNode):
    """Scatter-add into a storage by ``src`` positions, divide by ``counts``, gather at ``dst``.

    The gradient of :class:`AsStrided`: an element of ``x`` that shares its
    storage with others gets an equal share of the storage's gradient. Its own
    gradient is the same map from ``dst`` to ``src``.
    """

    def __init__(self, src: NdArray, dst: NdArray, size: int, counts: NdArray | None) -> None:
        self.src = src
        self.dst = dst
        self.size = size
        self.counts = counts

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        g, = inputs
        if g.dtype.kind != 'f':
            raise TypeError(f'as_strided: the gradient needs a floating dtype, not {g.dtype}')
        xp = backend.get_array_module(g)
        store = xp.bincount(self.src.reshape(-1), weights=g.reshape(-1), minlength=self.size)
        if self.counts is not None:
            store = store / self.counts
        return store[self.dst].astype(g.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return StorageMap(self.dst, self.src, self.size, self.counts).apply(grad_outputs)


class TensorGeometry:
    """Where an array's elements lie in its storage: shape, strides and offset in elements.

    Args:
        array: a NumPy or CuPy array (a view or an owner of its data).
    """

    def __init__(self, array: NdArray) -> None:
        _, (shape, strides, offset) = _storage(array)
        self.shape: tuple[int, ...] = tuple(shape)
        self.strides: tuple[int, ...] = tuple(strides)
        self.storage_offset: int = offset

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    def as_tuple(self) -> Geometry:
        """``(shape, strides, storage_offset)``."""
        return self.shape, self.strides, self.storage_offset

    def __repr__(self) -> str:
        return (f'TensorGeometry(shape={self.shape}, strides={self.strides}, '
                f'storage_offset={self.storage_offset})')


class AsStridedGrad(StorageMap):
    """The gradient of :class:`AsStrided`, applied to ``(gy,)``: each storage element
    gets the sum of the view positions that read it, shared equally among the input
    elements that occupy it.

    Args:
        input_geometry: the :class:`TensorGeometry` of the input of ``as_strided``.
        shape: the view's shape.
        strides: the view's strides (elements).
        storage_offset: the view's offset (elements).
    """

    def __init__(self, input_geometry: TensorGeometry, shape: Sequence[int],
                 strides: Sequence[int], storage_offset: int) -> None:
        self.input_geometry = input_geometry
        self._out = (tuple(shape), tuple(strides), int(storage_offset))
        self._mapped = False

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        if not self._mapped:
            xp = backend.get_array_module(inputs[0])
            StorageMap.__init__(self, *_grad_map(xp, self.input_geometry.as_tuple(),
                                                 self._out))
            self._mapped = True
        return super().forward(inputs)


@guarded
def as_strided(x: VariableOrArray, shape: ShapeSpec, strides: ShapeSpec,
               storage_offset: int | None = None) -> Variable:
    """Create a view of the storage of ``x`` with the given shape, strides and offset.

    The storage is the memory of the array that owns the data of ``x`` (for an
    array that owns its data, its elements in memory order). Strides and offset
    count elements, not bytes, unlike :func:`numpy.lib.stride_tricks.as_strided`.
    The gradient of a storage element is the sum over the view positions that
    read it, shared equally among the elements of ``x`` that occupy it.

    Args:
        x: input variable.
        shape: the shape of the view.
        strides: the step (in elements) along each axis of the view.
        storage_offset: the storage index of the first element (default 0).

    Returns:
        The strided variable. Writing into its array may change ``x``.

    Raises:
        ValueError: when the view would reach outside the storage, or shape
            and strides differ in length.
        TypeError: when backpropagating through an integer array.
    """
    shape = as_int_tuple(shape, 'shape')
    strides = as_int_tuple(strides, 'strides')
    if len(shape) != len(strides):
        raise ValueError(f'shape {shape} and strides {strides} must have the same length')
    if any(s < 0 for s in shape):
        raise ValueError(f'shape must be non-negative, not {shape}')
    offset = 0 if storage_offset is None else as_int(storage_offset, 'storage_offset')
    return AsStrided(shape, strides, offset).apply((x,))[0]
