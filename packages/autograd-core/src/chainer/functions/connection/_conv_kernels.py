"""The layout passes of 2-d convolutions as compiled kernels (Numba; see ``chainer._jit``).

:mod:`chainer.functions.connection._conv_core` computes a convolution as a matrix
product over patches; around the product, NumPy moves the data between the image layout
``(n, c, h, w)`` and the product's ``(c, n * rows)`` in strided passes. These kernels make
those passes in one loop each, over the (possibly "wide") rows of the product's layout:

- :func:`to_output`: the product's rows to the output ``(n, o, h, w)``, wide columns
  cropped, with the bias added in the same pass (NumPy: a strided copy, then ``y += b``);
- :func:`from_output`: the output gradient to the product's layout, wide columns zero
  (NumPy: zeros, then a strided copy).

Both copy, or add the bias once as NumPy does, so both paths give the same numbers bit
for bit. (A compiled col2im, summing the patches' gradients one image channel at a time,
was tried and not kept: 1.4x faster alone, it gained nothing in a training step.)
"""

from __future__ import annotations

import numpy

from chainer import _jit

NDArray = numpy.ndarray


@_jit.kernel
def to_output(yT: NDArray, b: NDArray, with_bias: bool,
              y: NDArray) -> None:  # pragma: no cover (compiled)
    """``y[n, o, i, j] = yT[o, n, i, j] (+ b[o])`` for ``j < y.shape[3]`` (``yT``'s
    rows may be longer: the wide columns are dropped)."""
    n, o, oh, ow = y.shape
    for ni in range(n):
        for oi in range(o):
            for r in range(oh):
                src = yT[oi, ni, r]
                dst = y[ni, oi, r]
                if with_bias:
                    bias = b[oi]
                    for j in range(ow):
                        dst[j] = src[j] + bias
                else:
                    for j in range(ow):
                        dst[j] = src[j]


@_jit.kernel
def from_output(gy: NDArray, buf: NDArray) -> None:  # pragma: no cover (compiled)
    """``buf[o, n, i, j] = gy[n, o, i, j]``, and 0 for the wide columns
    ``j >= gy.shape[3]``."""
    n, o, oh, ow = gy.shape
    width = buf.shape[3]
    for oi in range(o):
        for ni in range(n):
            for r in range(oh):
                src = gy[ni, oi, r]
                dst = buf[oi, ni, r]
                for j in range(ow):
                    dst[j] = src[j]
                for j in range(ow, width):
                    dst[j] = 0
