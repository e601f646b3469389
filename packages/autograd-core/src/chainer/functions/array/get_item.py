"""Indexing (basic and advanced)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import bool_to_nonzero, has_integer_index, index_add
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from types import EllipsisType
    from typing import TypeAlias

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp

    # One item of an index, and an index (as get_item and scatter_add take it): an int,
    # a slice, Ellipsis, None, an integer or boolean array (a list of them becomes one),
    # a Variable holding one, or a tuple of these.
    IndexItem: TypeAlias = int | slice | EllipsisType | None | NdArray | Variable | list[Any]
    Index: TypeAlias = IndexItem | tuple[IndexItem, ...]


def _index_item(s: Any) -> Any:
    if isinstance(s, Variable):
        s = s.array
    if isinstance(s, list):
        a = numpy.asarray(s)
        if a.size == 0:
            a = a.astype(numpy.intp)
        return a
    return s


_BASIC = (int, slice, type(None), type(Ellipsis))


class _MultipleEllipsisError(IndexError, ValueError):
    """More than one Ellipsis: an IndexError as NumPy's, a ValueError as Chainer 7's."""

    def __init__(self) -> None:
        super().__init__('an index can only have a single ellipsis (...)')


def indexed_dims(slices: tuple[Any, ...]) -> int:
    """The number of input axes that a normalized index consumes."""
    n = 0
    for s in slices:
        if s is None or s is Ellipsis:
            continue
        dtype = getattr(s, 'dtype', None)
        n += s.ndim if dtype is not None and dtype == numpy.bool_ else 1
    return n


def normalize_slices(slices: Index) -> tuple[Any, ...]:
    """Turn an index (as accepted by :func:`get_item`) into a tuple of index items.

    Variables become their arrays, lists become arrays; a list mixing slices,
    None or Ellipsis is read as a tuple (the legacy NumPy rule Chainer followed).
    """
    if type(slices) in _BASIC:
        return (slices,)
    if type(slices) is tuple and all(type(s) in _BASIC for s in slices):
        if slices.count(Ellipsis) > 1:
            raise _MultipleEllipsisError
        return slices
    if isinstance(slices, list):
        if any(isinstance(s, (slice, list)) or s is None or s is Ellipsis for s in slices):
            slices = tuple(slices)
        else:
            slices = (slices,)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    out = tuple(_index_item(s) for s in slices)
    if sum(1 for s in out if s is Ellipsis) > 1:
        raise _MultipleEllipsisError
    for s in out:
        if getattr(s, 'dtype', None) is not None and s.dtype.kind not in 'iub':
            raise IndexError('arrays used as indices must be of integer or boolean type, '
                             f'not {s.dtype}')
    return out


def slices_to(xp: Xp, slices: tuple[Any, ...]) -> tuple[Any, ...]:
    """Move the index arrays of ``slices`` to the array module ``xp``."""
    if all(type(s) in _BASIC for s in slices):
        return slices
    if xp is numpy:
        return tuple(backend.CpuDevice().send_array(s) if _is_device_array(s) else s
                     for s in slices)
    return tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s for s in slices)


def _is_device_array(s: Any) -> bool:
    return hasattr(s, 'ndim') and not isinstance(s, (numpy.ndarray, numpy.generic))


class GetItem(FunctionNode):
    """``x[slices]`` with NumPy indexing semantics."""

    def __init__(self, slices: Index) -> None:
        self.slices = normalize_slices(slices)

    @property
    def label(self) -> str:
        return 'GetItem'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        self.slices = slices_to(xp, self.slices)
        self._in_shape = x.shape
        return xp.asarray(x[self.slices]),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return GetItemGrad(self.slices, self._in_shape).apply(grad_outputs)


class GetItemGrad(FunctionNode):
    """Scatter-add of a gradient into zeros of the input shape (the adjoint of GetItem)."""

    def __init__(self, slices: tuple[Any, ...], in_shape: tuple[int, ...]) -> None:
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        if has_integer_index(self.slices):
            index_add(gx, bool_to_nonzero(self.slices), gy)
        else:
            gx[self.slices] = gy
        return gx,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return GetItem(self.slices).apply(grad_outputs)


@guarded
def get_item(x: VariableOrArray, slices: Index) -> Variable:
    """Index ``x`` like a NumPy array.

    Args:
        x: input variable or array.
        slices: an int, a slice, Ellipsis, None, an integer or boolean array
            (NumPy/CuPy array, list, or Variable), or a tuple of them. Repeated
            integer indices accumulate their gradients.

    Returns:
        The selected part as a variable; its gradient is scattered back to ``x``.

    Raises:
        IndexError: for an index that does not fit ``x``; for more than one
            Ellipsis, the error is also a ValueError (as in Chainer 7).

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(12, dtype=np.float32).reshape(3, 4)
        >>> print(F.get_item(x, (slice(None), 1)).array)
        [1. 5. 9.]
        >>> print(F.get_item(x, ([0, 2], slice(1, 3))).array)
        [[ 1.  2.]
         [ 9. 10.]]
    """
    return GetItem(slices).apply((x,))[0]


def _variable_getitem(self: Variable, slices: Index) -> Variable:
    """``variable[slices]``: :func:`chainer.functions.get_item` as an operator."""
    return get_item(self, slices)


def install_variable_get_item() -> None:
    """Make :func:`get_item` the indexing operator (``__getitem__``) of Variable.

    Variable indexes through :func:`get_item` already; this sets it again (e.g. after
    code replaced ``Variable.__getitem__``).
    """
    Variable.__getitem__ = _variable_getitem  # type: ignore[method-assign]
