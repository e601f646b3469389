"""N-dimensional im2col/col2im (the helpers behind convolution and pooling).

These are the functions of :mod:`chainer.utils.conv`, under the names v7 used
for their N-dimensional forms; the CPU and GPU versions are one function each.
A bad argument length raises :class:`~chainer.utils.error.ArgumentValueError`,
a ValueError that is also the AssertionError v7 raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chainer.utils.conv import col2im_nd, get_conv_outsize, get_deconv_outsize, im2col_nd
from chainer.utils.error import ArgumentValueError

im2col_nd_cpu = im2col_nd_gpu = im2col_nd
col2im_nd_cpu = col2im_nd_gpu = col2im_nd

__all__ = ['as_tuple', 'col2im_nd', 'col2im_nd_cpu', 'col2im_nd_gpu', 'get_conv_outsize',
           'get_deconv_outsize', 'im2col_nd', 'im2col_nd_cpu', 'im2col_nd_gpu']


def as_tuple(x: Any, n: int) -> tuple[Any, ...]:
    """``x`` repeated ``n`` times, or ``x`` itself as a tuple when it is a sequence.

    Args:
        x: a scalar (e.g. a kernel size) or a sequence of ``n`` of them.
        n: the number of spatial axes.

    Raises:
        ArgumentValueError: (a ValueError, also an AssertionError as in v7)
            when ``x`` is a sequence whose length is not ``n``.
    """
    if (isinstance(x, Sequence) and not isinstance(x, str)) or getattr(x, 'ndim', 0) > 0:
        x = tuple(x)
        if len(x) != n:
            raise ArgumentValueError(f'expected {n} values, got {len(x)}: {x}')
        return x
    return (x,) * n
