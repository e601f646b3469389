"""The gradient of 2-d max pooling as a compiled kernel (Numba; see ``chainer._jit``).

:meth:`Windows.scatter <chainer.functions.pooling._windows.Windows.scatter>` on NumPy
builds an index array of every maximum's location and scatter-adds the gradient there
(``numpy.add.at``); the kernel adds in one pass, in the same (row-major) order, so both
give the same gradient bit for bit. (A compiled maximum was tried and not kept: NumPy's
vectorized passes over strided views ran it 2.5x faster than a scalar loop.)
"""

from __future__ import annotations

import numpy

from chainer import _jit

NDArray = numpy.ndarray


@_jit.kernel
def scatter_2d(g: NDArray, rel: NDArray, sy: int, sx: int, row_stride: int,
               buf: NDArray) -> None:  # pragma: no cover (compiled)
    """Add each ``g[i, j, oy, ox]`` to ``buf[i, j]`` (flat padded images) at its window's
    origin plus ``rel``, in row-major order of the outputs."""
    n, c, oh, ow = g.shape
    for i in range(n):
        for j in range(c):
            for oy in range(oh):
                for ox in range(ow):
                    at = oy * sy * row_stride + ox * sx + rel[i, j, oy, ox]
                    buf[i, j, at] += g[i, j, oy, ox]
