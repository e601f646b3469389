"""Strided views with gradients."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.array._util import as_int, as_int_tuple
from chainer.utils import type_check
from chainer.variable import Variable


def _stride_tricks(xp: Any) -> Any:
    return numpy.lib.stride_tricks if xp is numpy else xp.lib.stride_tricks


def _strided(flat: Any, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> Any:
    """The view of the 1-D contiguous ``flat`` with element ``strides`` from ``offset``."""
    xp = backend.get_array_module(flat)
    size = 1
    for s in shape:
        size *= s
    if size:
        low = offset + sum(min(0, (n - 1) * st) for n, st in zip(shape, strides))
        high = offset + sum(max(0, (n - 1) * st) for n, st in zip(shape, strides))
        if low < 0 or high >= flat.size:
            raise ValueError(
                f'as_strided: shape {shape}, strides {strides} and offset {offset} reach '
                f'elements {low}..{high}, outside the {flat.size} elements of the input')
        base = flat[offset:]
    else:
        base = flat[:0] if flat.size == 0 else flat[:1]
    item = flat.itemsize
    return _stride_tricks(xp).as_strided(base, shape, tuple(st * item for st in strides))


class AsStrided(FunctionNode):
    """A view of the elements of ``x`` (in C order) with the given shape and strides."""

    def __init__(self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> None:
        self.shape = shape
        self.strides = strides
        self.offset = offset

    @property
    def label(self) -> str:
        return 'AsStrided'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        flat = xp.ascontiguousarray(x).reshape(-1)
        return _strided(flat, self.shape, self.strides, self.offset),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return AsStridedGrad(self._in_shape, self.shape, self.strides, self.offset).apply(
            grad_outputs)


class AsStridedGrad(FunctionNode):
    """Sum the gradient of every view position into the element it reads."""

    def __init__(self, in_shape: tuple[int, ...], shape: tuple[int, ...],
                 strides: tuple[int, ...], offset: int) -> None:
        self._in_shape = in_shape
        self.shape = shape
        self.strides = strides
        self.offset = offset

    def forward(self, inputs: Any) -> Any:
        gy, = inputs
        xp = backend.get_array_module(gy)
        size = 1
        for s in self._in_shape:
            size *= s
        positions = _strided(xp.arange(size), self.shape, self.strides, self.offset)
        gx = xp.bincount(positions.reshape(-1), weights=gy.reshape(-1), minlength=size)
        return gx.astype(gy.dtype, copy=False).reshape(self._in_shape),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return AsStrided(self.shape, self.strides, self.offset).apply(grad_outputs)


def as_strided(x: Any, shape: Any, strides: Any, storage_offset: int | None = None) -> Variable:
    """Create a view of ``x`` with the given shape, strides and offset.

    The "storage" is the sequence of the elements of ``x`` in C order; the
    strides and the offset count elements (not bytes), unlike
    :func:`numpy.lib.stride_tricks.as_strided`. Elements read several times
    receive the sum of their gradients.

    Args:
        x: input variable.
        shape: the shape of the view.
        strides: the step (in elements) along each axis of the view.
        storage_offset: the index of the first element of the view (default 0).

    Returns:
        The strided variable. Writing into its array may change ``x``.

    Raises:
        ValueError: when the view would read outside ``x`` or shape and
            strides differ in length.
    """
    shape = as_int_tuple(shape, 'shape')
    strides = as_int_tuple(strides, 'strides')
    if len(shape) != len(strides):
        raise ValueError(f'shape {shape} and strides {strides} must have the same length')
    if any(s < 0 for s in shape):
        raise ValueError(f'shape must be non-negative, not {shape}')
    offset = 0 if storage_offset is None else as_int(storage_offset, 'storage_offset')
    return AsStrided(shape, strides, offset).apply((x,))[0]
