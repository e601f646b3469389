"""Gradients of parameters kept as sums of factors until the backward pass ends.

A weight used at every step of a recurrent loop gets one gradient per step:
``gy_t^T x_t`` for a linear layer, rows of ``gy_t`` scattered into zeros for an
embedding. Computing each of them and adding it to the running sum costs one
small, memory-bound product and one pass over the whole weight per step. A
:class:`DeferredGrad` instead collects the factors and computes their sum in
one go when the pass ends: one large matrix product over the concatenated
factors, or one scatter of all rows.

Only a first-order pass that stores plain gradients on leaf variables defers
(no double backprop, no function hooks, no ``retain_grad``, no debug mode,
no lazy sums); the pass names the function whose backward it runs
(:func:`running`), and that backward may then return a :class:`DeferredGrad`
for an input that is a leaf (:func:`wanted`). The factors held are bounded: when
they grow past a few times the gradient's own size, they are summed into a
dense buffer and collecting starts again (a single factor that large is summed
at once), so deferring never holds more than a few times a weight's memory.
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any

import numpy

from chainer import _cpu_blas, _jit, _scatter_kernels, backend

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.types import DTypeSpec
    from chainer.variable import VariableNode

# factors may hold this many times the elements of the gradient before they are summed
# (a factor larger than that alone is summed at once: no memory is held for it)
_FACTOR_LIMIT = 4
#: gradients smaller than this are not deferred
MIN_SIZE = 1 << 14

_state = threading.local()


def enabled() -> bool:
    """Whether a backward pass that defers is running its functions (this thread)."""
    return getattr(_state, 'func', None) is not None


def wanted(func: FunctionNode, node: VariableNode, size: int) -> bool:
    """Whether ``func``'s backward may return a :class:`DeferredGrad` for its input ``node``
    (of ``size`` elements).

    True only for the function that a deferring pass is running right now (not for a
    backward that function calls by hand), a leaf ``node`` (one no function made) and a
    gradient of at least ``MIN_SIZE`` elements (summing smaller ones costs less than
    deferring them).
    """
    return (size >= MIN_SIZE and getattr(_state, 'func', None) is func
            and node.creator_node is None)


def running(func: FunctionNode | None) -> None:
    """Record that the pass runs ``func``'s backward next (None: no function may defer)."""
    _state.func = func


class enabling:
    """Context manager of a backward pass: no function may defer until :func:`running`
    names one; the state of an enclosing pass is restored on exit."""

    def __enter__(self) -> None:
        self._previous = getattr(_state, 'func', None)
        _state.func = None

    def __exit__(self, *exc: object) -> None:
        _state.func = self._previous


class DeferredGrad:
    """A gradient of ``shape`` and ``dtype`` that is a sum of factors not computed yet."""

    __slots__ = ('shape', 'dtype', '_size', '_held', '_base', '_left', '_right')

    def __init__(self, shape: tuple[int, ...], dtype: DTypeSpec) -> None:
        self.shape = shape
        self.dtype = dtype
        self._size = max(1, math.prod(shape))
        self._held = 0
        self._base: Any = None
        # the factors: pairs of arrays, one pair per use, summed by _compute
        self._left: list[Any] = []
        self._right: list[Any] = []

    def merge(self, other: DeferredGrad) -> bool:
        """Add ``other``'s factors to this sum; False (nothing changed) if they cannot mix."""
        if type(other) is not type(self) or not self._compatible(other):
            return False
        self._take(other)
        self._held += other._held
        if other._base is not None:
            self._add_to_base(other._base)
        self._settle()
        return True

    def _settle(self) -> None:
        """Sum the factors into the dense buffer when they hold too many elements."""
        if self._held > _FACTOR_LIMIT * self._size:
            self._flush()

    def _flush(self) -> None:
        """Add the factors' sum to the dense buffer and drop them."""
        self._add_to_base(self._compute())
        self._left = []
        self._right = []
        self._held = 0

    def materialize(self) -> Any:
        """The gradient as one array (a new array owned by the caller)."""
        if self._left:
            self._flush()
        if self._base is None:
            raise RuntimeError('a deferred gradient without factors')
        return self._base

    def _add_to_base(self, array: Any) -> None:
        if self._base is None:
            self._base = array
        else:
            self._base += array

    def _add_factors(self, left: Any, right: Any, held: int) -> None:
        self._left.append(left)
        self._right.append(right)
        self._held = held
        self._settle()

    def _take(self, other: DeferredGrad) -> None:
        self._left.extend(other._left)
        self._right.extend(other._right)

    def _joined(self) -> tuple[Any, Any]:
        """The left and the right factors, each concatenated along axis 0."""
        if len(self._left) == 1:
            return self._left[0], self._right[0]
        xp = backend.get_array_module(self._left[0])
        return xp.concatenate(self._left, axis=0), xp.concatenate(self._right, axis=0)

    # subclasses: what the factors mean
    def _compatible(self, other: Any) -> bool:
        return other.shape == self.shape and other.dtype == self.dtype

    def _compute(self) -> Any:
        raise NotImplementedError


class ProductSum(DeferredGrad):
    """``sum_i a_i^T b_i`` for ``a_i`` of shape ``(k_i, m)`` and ``b_i`` of shape ``(k_i, n)``.

    The weight gradient of a linear map ``y = x W^T`` is ``ProductSum(gy, x)``.
    """

    __slots__ = ('_factor_dtypes',)

    def __init__(self, a: Any, b: Any, dtype: DTypeSpec) -> None:
        super().__init__((a.shape[1], b.shape[1]), dtype)
        self._factor_dtypes = (a.dtype, b.dtype)
        self._add_factors(a, b, a.size + b.size)

    def _compatible(self, other: Any) -> bool:
        return super()._compatible(other) and other._factor_dtypes == self._factor_dtypes

    def _compute(self) -> Any:
        a, b = self._joined()
        return _cpu_blas.dot(a.T, b).astype(self.dtype, copy=False)


class RowScatterSum(DeferredGrad):
    """Rows ``rows_i`` added into a zero array of ``shape`` at the indexes ``ids_i``.

    The weight gradient of an embedding lookup ``W[ids]`` is
    ``RowScatterSum(W.shape, W.dtype, ids, gy)``; ``ignore`` is an ID that gets
    nothing (None: none).
    """

    __slots__ = ('_ignore',)

    def __init__(self, shape: tuple[int, ...], dtype: DTypeSpec, ids: Any, rows: Any,
                 ignore: int | None = None) -> None:
        super().__init__(tuple(shape), dtype)
        self._ignore = ignore
        self._add_factors(ids.ravel(), rows.reshape(-1, shape[1]), rows.size)

    def _compatible(self, other: Any) -> bool:
        return super()._compatible(other) and other._ignore == self._ignore

    def _compute(self) -> Any:
        ids, rows = self._joined()
        return scatter_rows(self.shape, self.dtype, ids, rows, self._ignore)


class DeferredSum(DeferredGrad):
    """Deferred gradients of different kinds for one variable (a weight tied between an
    embedding and an output layer), each kept in its own kind and added at the end."""

    __slots__ = ('_parts',)

    def __init__(self, first: DeferredGrad, second: DeferredGrad) -> None:
        super().__init__(first.shape, first.dtype)
        self._parts = [first, second]

    def merge(self, other: DeferredGrad) -> bool:
        if other.shape != self.shape or other.dtype != self.dtype:
            return False
        parts = other._parts if type(other) is DeferredSum else [other]
        for new in parts:
            if not any(part.merge(new) for part in self._parts):
                self._parts.append(new)
        return True

    def materialize(self) -> Any:
        total = self._parts[0].materialize()
        for part in self._parts[1:]:
            total += part.materialize()
        return total


def scatter_rows(shape: tuple[int, ...], dtype: DTypeSpec, ids: Any, rows: Any,
                 ignore: int | None = None) -> Any:
    """A zero array of ``shape`` with ``rows`` (one per ID) added at the row indexes ``ids``.

    An ID equal to ``ignore`` contributes nothing.
    """
    # imported here: chainer.functions imports this module (through function_node)
    from chainer.functions.array._util import index_add

    out = backend.get_array_module(rows).zeros(shape, dtype=dtype)
    if ignore is not None:
        keep = ids != ignore
        ids, rows = ids[keep], rows[keep]
    if (type(rows) is numpy.ndarray and type(ids) is numpy.ndarray and out.ndim == 2
            and rows.ndim == 2 and ids.ndim == 1 and ids.dtype.kind == 'i'
            and rows.dtype == out.dtype and out.dtype in _jit.FLOAT_DTYPES
            and rows.shape == (len(ids), out.shape[1]) and _jit.enabled()
            and _scatter_kernels.add_rows(out, ids, rows)):
        return out  # compiled (an ID out of range: add.at raises the error)
    index_add(out, ids, rows)
    return out
