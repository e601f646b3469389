"""2-d max pooling's compiled kernels (Numba; see ``chainer._jit``).

- :func:`scatter_2d`, the gradient: :meth:`Windows.scatter
  <chainer.functions.pooling._windows.Windows.scatter>` on NumPy builds an index array of
  every maximum's location and scatter-adds the gradient there (``numpy.add.at``); the
  kernel adds in one pass, in the same (row-major) order, so both give the same gradient
  bit for bit.
- :func:`max_2x2`, the maxima and their locations of 2x2 windows with stride 2 inside the
  image (the common pooling of CNNs), 10x faster than NumPy's passes over strided views:
  its window size is fixed, so that the compiler vectorizes the loop over the outputs. It
  compares in :meth:`Windows.max`'s order (each row's pair first, then the two rows), so
  both give the same maxima and locations, NaN included, bit for bit (the sign of a
  maximum of zeros follows NumPy's ``maximum`` on x86, which the NumPy documentation
  leaves open). A kernel for any window size was
  tried and not kept: with the window's loops not unrolled, it ran up to 2.5x slower
  than NumPy.
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


@_jit.kernel
def max_2x2(x: NDArray, row_stride: int, y: NDArray,
            rel: NDArray) -> None:  # pragma: no cover (compiled)
    """The maximum ``y`` of each 2x2 window of stride 2 of the C-contiguous images ``x``
    (n, c, h, w), and its flat offset ``rel`` from the window's origin (``row_stride``:
    the image's row length); the first maximum in :meth:`Windows.max`'s order wins and
    NaN propagates."""
    n, c, oh, ow = y.shape
    xs = x.reshape(n * c, x.shape[2], x.shape[3])
    ys = y.reshape(n * c, oh, ow)
    rs = rel.reshape(n * c, oh, ow)
    for p in range(n * c):
        for oy in range(oh):
            top = xs[p, 2 * oy]
            bottom = xs[p, 2 * oy + 1]
            for ox in range(ow):
                a = top[2 * ox]
                b = top[2 * ox + 1]
                # numpy.maximum(a, b) on x86: a if it is larger or NaN, else b
                m0 = a if (a > b or a != a) else b
                r0 = 1 if b > a else 0
                a = bottom[2 * ox]
                b = bottom[2 * ox + 1]
                m1 = a if (a > b or a != a) else b
                r1 = 1 if b > a else 0
                ys[p, oy, ox] = m0 if (m0 > m1 or m0 != m0) else m1
                rs[p, oy, ox] = r1 + row_stride if m1 > m0 else r0
