"""Fully-connected (linear) layer function: ``y = x W^T + b``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import _cpu_blas, _deferred_grad, utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import first_axis_sum, retained_inputs
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray

# Where OpenBLAS computes ``x W^T`` faster as ``(W x^T)^T`` (copied back to C order),
# by the rows of ``x``: (most rows, fewest columns, fewest weight rows). Measured on the
# NumPy wheels' OpenBLAS, products alone, with the large products cut into blocks by
# chainer._cpu_blas (2026-11-27, 2 threads): 1.05x to 1.75x faster up to 8 rows,
# 1.05x to 1.3x from 20 to 24 rows with 512 columns or more; equal or slower elsewhere
# (0.7x at 48 rows and more). Inside a training step the copy costs more than alone: the
# 20-row output layer of the PTB LSTM (200 columns, 10,000 weight rows) took the step
# 6% longer this way, and the 100-row layers of a 784-1000-1000 MLP 5% longer.
_TRANSPOSED_ROUTE = ((8, 64, 2), (24, 512, 200))


def _product(x: Any, W: Any) -> Any:
    """``x W^T`` as a C-contiguous array, in the orientation OpenBLAS runs faster.

    OpenBLAS multiplies a few rows by a large transposed weight up to 1.75x slower
    than the same product taken the other way round; on CPU, such shapes
    (:data:`_TRANSPOSED_ROUTE`, and 50K weight elements or more) take ``W x^T``.
    Products that OpenBLAS would thread go through :func:`chainer._cpu_blas.dot`.
    """
    m, k = x.shape
    if m * W.size < _cpu_blas.SMALL_MACS and type(x) is numpy.ndarray:
        return x.dot(W.T)  # the overhead of a call counts for these
    if m >= 2 and type(x) is numpy.ndarray and type(W) is numpy.ndarray and W.size >= 50_000:
        n = W.shape[0]
        for rows, columns, weight_rows in _TRANSPOSED_ROUTE:
            if m <= rows:
                if k >= columns and n >= weight_rows:
                    return numpy.ascontiguousarray(_cpu_blas.dot(W, x.T).T)
                break
    return _cpu_blas.dot(x, W.T)


class LinearFunction(FunctionNode):
    """``x W^T (+ b)`` for a 2-D ``x`` of shape (N, in) and ``W`` of shape (out, in)."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'LinearFunction'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n_in = type_check.eval(in_types.size())
        if n_in not in (2, 3):
            raise type_check.InvalidType('2 or 3 arguments (x, W[, b])', f'{n_in} arguments')
        type_check.argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(b_type.dtype == x_type.dtype, b_type.ndim == 1,
                              b_type.shape[0] == w_type.shape[0])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        y = _product(x, W)
        if y.dtype != x.dtype:
            y = y.astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return utils.force_array(y),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if not config.enable_backprop:
            return self._backward_arrays(indexes, gy._data)
        x, W = retained_inputs(self)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(LinearGradData().apply((W, gy))[0])
            elif i == 1:
                ret.append(LinearGradWeight(W.dtype).apply((x, gy))[0])
            else:

                ret.append(_sum(gy, axis=0))
        return tuple(ret)

    def _backward_arrays(self, indexes: Any, gy: Any) -> tuple[Any, ...]:
        # First-order backward: no graph is needed, so skip the gradient nodes.
        x, W = self.inputs[0].data, self.inputs[1].data
        defer = 1 in indexes and _deferred_grad.wanted(self, self.inputs[1], W.size)
        return tuple([g if isinstance(g, _deferred_grad.DeferredGrad) else
                      Variable._new(g, False) for g in _grads(indexes, x, W, gy, defer)])

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[Any, ...] | None,
                        grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        assert inputs is not None
        return tuple(_grads(indexes, inputs[0], inputs[1], grad_outputs[0], False))


def _grads(indexes: tuple[int, ...], x: Any, W: Any, gy: Any, defer: bool) -> list[Any]:
    """The first-order gradients of ``x W^T + b`` for ``indexes`` (arrays; the weight's as
    a deferred sum with ``defer``)."""
    # either product's size; on a GPU, _cpu_blas.dot makes one cuBLAS call
    big = gy.size * W.shape[1] >= _cpu_blas.SMALL_MACS or type(gy) is not numpy.ndarray
    ret: list[Any] = []
    for i in indexes:
        if i == 0:
            g = _cpu_blas.dot(gy, W) if big else gy.dot(W)
            if g.dtype != gy.dtype:
                g = g.astype(gy.dtype)
        elif i == 1:
            if defer:
                ret.append(_deferred_grad.ProductSum(gy, x, W.dtype))
                continue
            g = _cpu_blas.dot(gy.T, x) if big else gy.T.dot(x)
            if g.dtype != W.dtype:
                g = g.astype(W.dtype)
        else:
            g = first_axis_sum(gy)
        ret.append(g)
    return ret


class LinearGradData(FunctionNode):
    """``gx = gy W``: the data gradient of a linear layer."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        W, gy = inputs
        gx = _cpu_blas.dot(gy, W)
        return utils.force_array(gx.astype(gy.dtype, copy=False)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        W, gy = retained_inputs(self)
        ggx, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(LinearGradWeight(W.dtype).apply((ggx, gy))[0])
            else:
                ret.append(LinearFunction().apply((ggx, W))[0])
        return tuple(ret)


class LinearGradWeight(FunctionNode):
    """``gW = gy^T x``: the weight gradient of a linear layer."""

    def __init__(self, w_dtype: DTypeSpec) -> None:
        self._w_dtype = w_dtype

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _cpu_blas.dot(gy.T, x)
        return utils.force_array(gW.astype(self._w_dtype, copy=False)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, gy = retained_inputs(self)
        ggW, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(LinearGradData().apply((ggW, gy))[0])
            else:
                ret.append(LinearFunction().apply((x, ggW))[0])
        return tuple(ret)


@guarded
def linear(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
           n_batch_axes: int = 1) -> Variable:
    """Linear function: ``y = x W^T + b``.

    Args:
        x: input of shape ``(s_1, ..., s_n, ...)`` whose first ``n_batch_axes``
            axes are batch axes; the rest is flattened to the input size.
        W: weight of shape ``(out_size, in_size)``.
        b: bias of shape ``(out_size,)`` or None.
        n_batch_axes: the number of leading batch axes (>= 1).

    Returns:
        Output of shape ``(s_1, ..., s_n, out_size)``.

    Raises:
        ValueError: when ``n_batch_axes`` is not positive.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[1., 2., 3.]], np.float32)
        >>> W = np.array([[1., 0., 0.], [0., 1., 1.]], np.float32)
        >>> b = np.array([0.5, -1.], np.float32)
        >>> F.linear(x, W, b).array
        array([[1.5, 4. ]], dtype=float32)
    """

    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0')
    x_shape = x.shape
    batch_shape = x_shape[:n_batch_axes]
    reshaped = False
    if len(x_shape) != n_batch_axes + 1:
        batch_size = utils.size_of_shape(batch_shape)
        x = reshape(x, (batch_size, utils.size_of_shape(x_shape[n_batch_axes:])))
        reshaped = True
    elif n_batch_axes > 1:
        x = reshape(x, (utils.size_of_shape(batch_shape), x_shape[-1]))
        reshaped = True
    args = (x, W) if b is None else (x, W, b)
    y = LinearFunction().apply(args)[0]
    if reshaped and n_batch_axes > 1:
        y = reshape(y, batch_shape + (y.shape[-1],))
    return y
