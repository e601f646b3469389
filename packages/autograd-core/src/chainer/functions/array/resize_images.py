"""Resizing images by interpolation."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._util import expect_float
from chainer.utils import type_check
from chainer.variable import Variable


def _interpolation_matrix(out: int, n: int, mode: str, align_corners: bool) -> Any:
    """The ``(out, n)`` matrix that resamples a length-``n`` axis to ``out``."""
    a = numpy.zeros((out, n))
    o = numpy.arange(out)
    if mode == 'nearest':
        src = numpy.minimum(numpy.floor(o * (n / out)), n - 1).astype(numpy.intp)
        a[o, src] = 1
        return a
    if align_corners:
        src = o * ((n - 1) / (out - 1)) if out > 1 else numpy.zeros(out)
    else:
        src = (o + 0.5) * (n / out) - 0.5
    src = numpy.clip(src, 0, n - 1)
    i0 = numpy.minimum(numpy.floor(src).astype(numpy.intp), n - 1)
    i1 = numpy.minimum(i0 + 1, n - 1)
    w1 = src - i0
    numpy.add.at(a, (o, i0), 1 - w1)
    numpy.add.at(a, (o, i1), w1)
    return a


class ResizeImages(FunctionNode):
    """``y = A_h @ x @ A_w.T`` per image and channel, for resampling matrices ``A``."""

    def __init__(self, a_h: Any, a_w: Any, label: str = 'ResizeImages') -> None:
        self.a_h = a_h
        self.a_w = a_w
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)
        x = in_types[0]
        type_check.expect(x.ndim == 4)
        type_check.expect(x.shape[2] == type_check.make_variable(self.a_h.shape[1], 'h'),
                          x.shape[3] == type_check.make_variable(self.a_w.shape[1], 'w'))

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = numpy.float32 if x.dtype == numpy.float16 else x.dtype
        a_h = xp.asarray(self.a_h, dtype)
        a_w = xp.asarray(self.a_w, dtype)
        n, c, h, w = x.shape
        oh, ow = a_h.shape[0], a_w.shape[0]
        t = xp.matmul(x.reshape(n * c * h, w).astype(dtype, copy=False), a_w.T)
        y = xp.matmul(a_h, t.reshape(n * c, h, ow))
        return y.reshape(n, c, oh, ow).astype(x.dtype, copy=False),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        label = 'ResizeImagesGrad' if self._label == 'ResizeImages' else 'ResizeImages'
        return ResizeImages(self.a_h.T, self.a_w.T, label).apply(grad_outputs)


def resize_images(x: Any, output_shape: Any, *, mode: str = 'bilinear',
                  align_corners: bool = True) -> Variable:
    """Resize images to ``output_shape``.

    Args:
        x: variable of shape ``(n, c, h, w)`` (float).
        output_shape: ``(h_O, w_O)``, height first.
        mode: ``'bilinear'`` or ``'nearest'``.
        align_corners: (bilinear) map the corner pixels of the input onto
            those of the output; when False, pixel centers are scaled as in
            OpenCV. Nearest sampling takes ``floor(o * h / h_O)``.

    Returns:
        A variable of shape ``(n, c, h_O, w_O)``.

    Raises:
        ValueError: for an unknown mode or a non-positive output shape.
        chainer.utils.type_check.InvalidType: when ``x`` is not a 4-D float array.
    """
    if mode not in ('bilinear', 'nearest'):
        raise ValueError(f"mode must be 'bilinear' or 'nearest', not {mode!r}")
    out_h, out_w = (int(s) for s in output_shape)
    if out_h <= 0 or out_w <= 0:
        raise ValueError(f'output_shape must be positive, not {tuple(output_shape)}')
    arr = x.array if isinstance(x, Variable) else x
    if arr.ndim != 4:
        raise type_check.InvalidType('x.ndim == 4', f'x.ndim = {arr.ndim}',
                                     f'ResizeImages: x must be 4-D (n, c, h, w), not of '
                                     f'shape {arr.shape}')
    h, w = arr.shape[2:]
    a_h = _interpolation_matrix(out_h, h, mode, align_corners)
    a_w = _interpolation_matrix(out_w, w, mode, align_corners)
    return ResizeImages(a_h, a_w).apply((x,))[0]
