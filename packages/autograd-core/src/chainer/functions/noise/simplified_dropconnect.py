"""Simplified DropConnect: a linear layer with randomly dropped weights."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.functions.noise._util import uniform
from chainer.utils import type_check
from chainer.variable import Variable, as_variable


def _check(x: Any, W: Any, b: Any) -> None:
    def fail(expect: str, actual: str) -> None:
        raise type_check.InvalidType(expect, actual,
                                     f'SimplifiedDropconnect: expected {expect}, got {actual}')

    if x.dtype.kind != 'f':
        fail('x.dtype.kind == f', f'x.dtype == {x.dtype}')
    if W.dtype != x.dtype:
        fail('W.dtype == x.dtype', f'{W.dtype} != {x.dtype}')
    if x.ndim < 2:
        fail('x.ndim >= 2', f'x.ndim == {x.ndim}')
    if W.ndim != 2:
        fail('W.ndim == 2', f'W.ndim == {W.ndim}')
    if utils.size_of_shape(x.shape[1:]) != W.shape[1]:
        fail('prod(x.shape[1:]) == W.shape[1]',
             f'{utils.size_of_shape(x.shape[1:])} != {W.shape[1]}')
    if b is not None:
        if b.dtype != x.dtype:
            fail('b.dtype == x.dtype', f'{b.dtype} != {x.dtype}')
        if b.shape != (W.shape[0],):
            fail('b.shape == (W.shape[0],)', f'{b.shape} != {(W.shape[0],)}')


def simplified_dropconnect(x: Any, W: Any, b: Any = None, ratio: float = .5,
                           train: bool = True, mask: Any = None,
                           use_batchwise_mask: bool = True) -> Variable:
    """Linear function with DropConnect: ``y = x (mask * W)^T / (1 - ratio) + b``.

    Each weight is dropped with probability ``ratio`` and the kept ones are
    scaled by ``1 / (1 - ratio)``. With ``use_batchwise_mask`` every sample of
    the batch gets its own mask, of shape ``(N, out_size, in_size)``; otherwise
    one mask of shape ``(out_size, in_size)`` is shared. With ``train=False``
    this is the plain linear function (no mask, no scaling).

    Args:
        x: input of shape ``(N, ...)``; the non-batch axes are flattened to
            ``in_size``.
        W: weight of shape ``(out_size, in_size)``.
        b: bias of shape ``(out_size,)`` or None.
        ratio: the drop ratio, in ``[0, 1)``.
        train: apply DropConnect (True) or act as a linear layer (False).
        mask: the mask to use instead of a random one (boolean or 0/1 values),
            of the shape described above.
        use_batchwise_mask: one mask per sample (True) or one shared mask.

    Returns:
        The output of shape ``(N, out_size)``.

    Raises:
        ValueError: for a ratio out of range or a mask of the wrong shape.
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    from chainer.functions.array.reshape import reshape
    from chainer.functions.connection.linear import linear
    from chainer.functions.math.matmul import matmul

    if not 0.0 <= ratio < 1.0:
        raise ValueError(f'ratio must be in the range [0, 1), got {ratio}')
    x = as_variable(x)
    W = as_variable(W)
    if b is not None:
        b = as_variable(b)
    _check(x, W, b)
    n = x.shape[0]
    out_size, in_size = W.shape
    x2 = reshape(x, (n, in_size)) if x.ndim != 2 else x
    if not train:
        return linear(x2, W, b)

    xp = backend.get_array_module(W.array)
    shape = (n, out_size, in_size) if use_batchwise_mask else (out_size, in_size)
    if mask is None:
        mask = uniform(xp, shape) >= ratio
    else:
        mask = getattr(mask, 'array', mask)
        if tuple(mask.shape) != shape:
            raise ValueError(f'mask must have the shape {shape}, got {mask.shape}')
    scaled = mask.astype(W.dtype) * W.dtype.type(1.0 / (1.0 - ratio))
    masked_w = W * scaled
    if not use_batchwise_mask:
        return linear(x2, masked_w, b)
    y = reshape(matmul(masked_w, reshape(x2, (n, in_size, 1))), (n, out_size))
    if b is not None:
        y = y + b
    return y
