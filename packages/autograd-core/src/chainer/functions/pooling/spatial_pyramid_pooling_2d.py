"""Spatial pyramid pooling."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from chainer.functions._guard import guarded
from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer.utils import numeric_args
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def spatial_pyramid_pooling_2d(x: VariableOrArray, pyramid_height: int,
                               pooling: str | None = None) -> Variable:
    """Spatial pyramid pooling: a fixed-length vector whatever the image size.

    Level ``i`` (from 0) max-pools ``x`` into ``2^i x 2^i`` bins with the window
    ``k = ceil(b / 2^i)`` and the padding ``(2^i k - b) // 2`` along each axis of length
    ``b`` (``cover_all``); the levels are flattened and concatenated.

    Args:
        x: variable of shape ``(n, c, h, w)``, floating point.
        pyramid_height: the number of levels.
        pooling: ``'max'`` (the only pooling supported).

    Returns:
        A variable of shape ``(n, c * (4^0 + 4^1 + ... + 4^(H-1)), 1, 1)``.

    Raises:
        ValueError: when ``pooling`` is not ``'max'``, ``pyramid_height`` is not a
            positive int, or ``x`` is not 4-dimensional.
        chainer.utils.type_check.InvalidType: when ``x`` is not floating point.
    """
    if pooling != 'max':
        raise ValueError(f"pooling must be 'max' (the only pooling supported), not {pooling!r}")
    if not numeric_args.is_int(pyramid_height) or pyramid_height <= 0:
        raise ValueError(f'pyramid_height must be a positive int, not {pyramid_height!r}')
    pyramid_height = numeric_args.as_int(pyramid_height)
    if len(x.shape) != 4:
        raise ValueError(f"the input 'x' must have the shape (n, c, h, w), not {x.shape}")
    n, h, w = x.shape[0], x.shape[2], x.shape[3]
    ys = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh, kw = -(-h // bins), -(-w // bins)
        pad = ((kh * bins - h) // 2, (kw * bins - w) // 2)
        # without return_indices, max_pooling_2d returns a Variable alone
        y = cast(Variable, max_pooling_2d(x, (kh, kw), None, pad, cover_all=True))
        _, c, oh, ow = y.shape
        ys.append(reshape(y, (n, c * oh * ow, 1, 1)))
    return concat(ys, axis=1)
