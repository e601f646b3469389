"""Simplified DropConnect: a linear layer with randomly dropped weights."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.cast import cast
from chainer.functions.array.reshape import reshape
from chainer.functions.math.matmul import matmul
from chainer.functions.math.sum import sum as sum_
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _mask_shape(x_shape: tuple[int, ...], w_shape: tuple[int, ...],
                batchwise: bool) -> tuple[int, ...]:
    return (x_shape[0],) + tuple(w_shape) if batchwise else tuple(w_shape)


class SimplifiedDropconnect(FunctionNode):
    """``y = x (mask * W)^T / (1 - ratio) + b``, with one mask per sample or one shared.

    Args:
        ratio: the drop ratio, in ``[0, 1)``; 0 keeps every weight (test mode).
        mask: the mask to use (boolean or 0/1 values), of shape ``(out_size,
            in_size)`` or ``(N, out_size, in_size)``; its shape decides whether it
            is batchwise. None draws a random one.
        use_batchwise_mask: draw one mask per sample (when ``mask`` is None).

    After forward, ``mask`` holds the mask used: a boolean array when drawn, a
    read-only all-True broadcast view when nothing is dropped (ratio 0).
    ``x`` may be of another float dtype than ``W``; ``y`` has the dtype of ``x``.
    """

    def __init__(self, ratio: float, mask: VariableOrArray | None = None,
                 use_batchwise_mask: bool = True) -> None:
        if not 0.0 <= ratio < 1.0:
            raise ValueError(f'ratio must be in the range [0, 1), got {ratio}')
        self.ratio = ratio
        self.mask: NdArray | None = mask.array if isinstance(mask, Variable) else mask
        self.use_batchwise_mask = (use_batchwise_mask if self.mask is None
                                   else self.mask.ndim == 3)

    @property
    def label(self) -> str:
        return 'SimplifiedDropconnect'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n_in = in_types.size()
        type_check.expect(n_in >= 2, n_in <= 3)
        n_in = type_check.eval(n_in)
        type_check.argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[:2]
        type_check.expect(x_type.dtype.kind == 'f', w_type.dtype.kind == 'f',
                          x_type.ndim >= 2, w_type.ndim == 2,
                          type_check.prod(x_type.shape[1:]) == w_type.shape[1])
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(b_type.dtype == x_type.dtype, b_type.ndim == 1,
                              b_type.shape[0] == w_type.shape[0])
        if self.mask is not None:
            expected = _mask_shape(type_check.eval(x_type.shape),
                                   type_check.eval(w_type.shape), self.use_batchwise_mask)
            if tuple(self.mask.shape) != expected:
                raise type_check.InvalidType(
                    f'mask of shape {expected}', f'mask of shape {self.mask.shape}',
                    'mask must have the shape (out_size, in_size) or (N, out_size, in_size)')

    def _scaled_mask(self, dtype: Any) -> Any:
        """The mask times ``1 / (1 - ratio)``, in ``dtype``."""
        mask = self.mask
        assert mask is not None  # given, or drawn by forward
        return mask.astype(dtype) * dtype.type(1.0 / (1.0 - self.ratio))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        # nothing dropped (ratio 0 without a given mask, e.g. test mode): the plain
        # linear function, with a broadcast all-True mask (no memory, no masked matmul)
        self._keep_all = self.mask is None and self.ratio == 0
        if self.mask is None:
            shape = _mask_shape(x.shape, W.shape, self.use_batchwise_mask)
            if self._keep_all:
                self.mask = xp.broadcast_to(xp.asarray(True), shape)
            else:
                rand = (xp.random.rand(*shape) if xp is numpy
                        else xp.random.rand(*shape, dtype=numpy.float32))
                self.mask = xp.asarray(rand >= self.ratio)
        x2 = x.reshape(len(x), W.shape[1])
        if self._keep_all:
            y = x2.dot(W.T)
        elif self.mask.ndim == 3:
            y = xp.matmul(W * self._scaled_mask(W.dtype), x2[:, :, None])[:, :, 0]
        else:
            y = x2.dot((W * self._scaled_mask(W.dtype)).T)
        if len(inputs) == 3:
            y = y + inputs[2]
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, W = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        n = len(x)
        out_size, in_size = W.shape
        m = None if self._keep_all else self._scaled_mask(W.dtype)
        batchwise = m is not None and m.ndim == 3
        ret = []
        for i in indexes:
            if i == 0:
                if batchwise and m is not None:
                    gx = reshape(matmul(reshape(gy, (n, 1, out_size)), W * m), (n, in_size))
                else:
                    gx = matmul(gy, W if m is None else W * m)
                ret.append(reshape(cast(gx, x.dtype), x.shape))
            elif i == 1:
                x2 = reshape(x, (n, in_size))
                if batchwise and m is not None:
                    outer = matmul(reshape(gy, (n, out_size, 1)), reshape(x2, (n, 1, in_size)))
                    gW = sum_(outer * m, axis=0)
                else:
                    gW = matmul(gy, x2, transa=True)
                    if m is not None:
                        gW = gW * m
                ret.append(cast(gW, W.dtype))
            else:
                ret.append(sum_(gy, axis=0))
        return tuple(ret)


@guarded
def simplified_dropconnect(x: VariableOrArray, W: VariableOrArray,
                           b: VariableOrArray | None = None, ratio: float = .5, train: bool = True,
                           mask: VariableOrArray | None = None,
                           use_batchwise_mask: bool = True) -> Variable:
    """Linear function with DropConnect: ``y = x (mask * W)^T / (1 - ratio) + b``.

    Each weight is dropped with probability ``ratio`` and the kept ones are
    scaled by ``1 / (1 - ratio)``. With ``use_batchwise_mask`` every sample of
    the batch gets its own mask, of shape ``(N, out_size, in_size)``; otherwise
    one mask of shape ``(out_size, in_size)`` is shared. With ``train=False``
    this is the plain linear function (no mask, no scaling).

    Args:
        x: input of shape ``(N, ...)``; the non-batch axes are flattened to
            ``in_size``. Its float dtype may differ from ``W``'s.
        W: weight of shape ``(out_size, in_size)``.
        b: bias of shape ``(out_size,)`` and the dtype of ``x``, or None.
        ratio: the drop ratio, in ``[0, 1)``.
        train: apply DropConnect (True) or act as a linear layer (False).
        mask: the mask to use instead of a random one (boolean or 0/1 values),
            of shape ``(out_size, in_size)`` or ``(N, out_size, in_size)``;
            its shape then decides ``use_batchwise_mask``.
        use_batchwise_mask: one mask per sample (True) or one shared mask.

    Returns:
        The output of shape ``(N, out_size)`` and the dtype of ``x``.

    Raises:
        ValueError: for a ratio out of range.
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not
            fit (a mask of another shape included).
    """
    if not train:
        # a linear function: nothing dropped, whatever the mask (its shape still
        # tells whether the node's all-True mask is batchwise)
        ratio = 0.0
        if mask is not None:
            use_batchwise_mask = len(mask.shape) == 3
            mask = None
    inputs = (x, W) if b is None else (x, W, b)
    return SimplifiedDropconnect(ratio, mask, use_batchwise_mask).apply(inputs)[0]
