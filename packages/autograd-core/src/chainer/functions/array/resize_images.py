"""Resizing images by interpolation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import v7_type_error
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp


def _source_positions(out: int, n: int, mode: str, align_corners: bool) -> tuple[Any, Any]:
    """Where each of ``out`` samples reads a length-``n`` axis: the index of its left
    neighbour and the weight of the right one (0 for ``'nearest'``), NumPy arrays."""
    o = numpy.arange(out)
    if mode == 'nearest':
        index = numpy.minimum(numpy.floor(o * (n / out)), n - 1).astype(numpy.intp)
        return index, numpy.zeros(out)
    if align_corners:
        src = o * ((n - 1) / (out - 1)) if out > 1 else numpy.zeros(out)
    else:
        src = (o + 0.5) * (n / out) - 0.5
    src = numpy.clip(src, 0, n - 1)
    index = numpy.minimum(numpy.floor(src).astype(numpy.intp), n - 1)
    return index, src - index


def _interpolation_matrix(out: int, n: int, mode: str, align_corners: bool) -> Any:
    """The ``(out, n)`` matrix that resamples a length-``n`` axis to ``out``."""
    a = numpy.zeros((out, n))
    o = numpy.arange(out)
    i0, w1 = _source_positions(out, n, mode, align_corners)
    numpy.add.at(a, (o, i0), 1 - w1)
    numpy.add.at(a, (o, numpy.minimum(i0 + 1, n - 1)), w1)
    return a


def _expect_images(x: Any) -> None:
    """v7's check of ResizeImages' input (``x``; ``gy`` for its gradient): float32 and
    4-D. The project takes any float dtype; where both refuse, the condition is v7's."""
    if type_check.eval(x.dtype).kind != 'f':
        type_check.expect(x.dtype == numpy.float32)
    type_check.expect(x.ndim == 4)


class ResizeImages(FunctionNode):
    """``y = A_h @ x @ A_w.T`` per image and channel, for resampling matrices ``A``."""

    def __init__(self, a_h: NdArray, a_w: NdArray, label: str = 'ResizeImages') -> None:
        self.a_h = a_h
        self.a_w = a_w
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x' if self._label == 'ResizeImages' else 'gy',))
        x = in_types[0]
        _expect_images(x)
        type_check.expect(x.shape[2] == type_check.make_variable(self.a_h.shape[1], 'h'),
                          x.shape[3] == type_check.make_variable(self.a_w.shape[1], 'w'))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
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

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        label = 'ResizeImagesGrad' if self._label == 'ResizeImages' else 'ResizeImages'
        return ResizeImages(self.a_h.T, self.a_w.T, label).apply(grad_outputs)


class ResizeImagesGrad(ResizeImages):
    """The gradient of :func:`resize_images`, applied to ``(gy,)``.

    Args:
        input_shape: the shape ``(n, c, h, w)`` of the resized images.
        output_shape: ``(h_O, w_O)``, the size they were resized to.
        mode: ``'bilinear'`` or ``'nearest'``.
        align_corners: as in :func:`resize_images`.
    """

    def __init__(self, input_shape: tuple[int, ...], output_shape: tuple[int, int],
                 mode: str = 'bilinear', align_corners: bool = True) -> None:
        h, w = int(input_shape[2]), int(input_shape[3])
        oh, ow = int(output_shape[0]), int(output_shape[1])
        super().__init__(_interpolation_matrix(oh, h, mode, align_corners).T,
                         _interpolation_matrix(ow, w, mode, align_corners).T,
                         'ResizeImagesGrad')
        self.input_shape = tuple(input_shape)
        self.output_shape = (oh, ow)


def _axis_positions(out: int, n: int, mode: str, align_corners: bool, xp: Any) -> tuple[
        Any, Any]:
    index, weight = _source_positions(out, n, mode, align_corners)
    return xp.asarray(index), xp.asarray(weight)


def compute_indices_and_weights(out_size: tuple[int, int], in_size: tuple[int, int],
                                mode: str, align_corners: bool, xp: Xp) -> tuple[
                                    NdArray, NdArray, NdArray, NdArray]:
    """Where each output pixel of a resize reads the input.

    Args:
        out_size: ``(out_H, out_W)``.
        in_size: ``(H, W)``.
        mode: ``'bilinear'`` or ``'nearest'``.
        align_corners: as in :func:`resize_images`.
        xp: ``numpy`` or ``cupy``, the module of the returned arrays.

    Returns:
        ``(v, u, vw, uw)``: ``v`` (length ``out_H``) and ``u`` (length ``out_W``), the
        input row and column above and left of each output position (integers);
        ``vw`` and ``uw``, the weights (in ``[0, 1)``, float64) of the next row and
        column (zero in ``'nearest'`` mode).
    """
    if mode not in ('bilinear', 'nearest'):
        raise ValueError(f"mode must be 'bilinear' or 'nearest', not {mode!r}")
    v, vw = _axis_positions(int(out_size[0]), int(in_size[0]), mode, align_corners, xp)
    u, uw = _axis_positions(int(out_size[1]), int(in_size[1]), mode, align_corners, xp)
    return v, u, vw, uw


def _weights_matrix(index: Any, weight: Any, n: int, dtype: Any) -> Any:
    """The ``(len(index), n)`` resampling matrix of positions ``index + weight``."""
    xp = backend.get_array_module(index)
    o = xp.arange(index.shape[0])
    a = xp.zeros((index.shape[0], n), dtype)
    weight = weight.astype(dtype, copy=False)
    a[o, index] += 1 - weight
    a[o, xp.minimum(index + 1, n - 1)] += weight
    return a


def interpolate_bilinear_cpu(x: NdArray, v: NdArray, u: NdArray, vw: NdArray,
                             uw: NdArray) -> NdArray:
    """Resample images ``x`` ``(B, C, H, W)`` at the positions of
    :func:`compute_indices_and_weights` (an array function, no graph).

    Returns:
        An array ``(B, C, len(v), len(u))`` of ``x``'s dtype.
    """
    xp = backend.get_array_module(x)
    dtype = numpy.float32 if x.dtype == numpy.float16 else x.dtype
    a_h = _weights_matrix(v, vw, x.shape[2], dtype)
    a_w = _weights_matrix(u, uw, x.shape[3], dtype)
    y = xp.matmul(xp.matmul(a_h, x.astype(dtype, copy=False)), a_w.T)
    return y.astype(x.dtype, copy=False)


def interpolate_grad_bilinear_cpu(gy: NdArray, v: NdArray, u: NdArray, vw: NdArray,
                                  uw: NdArray, H: int, W: int) -> NdArray:
    """The gradient of :func:`interpolate_bilinear_cpu`: ``gy`` ``(B, C, out_H, out_W)``
    spread back onto images of size ``(H, W)`` (an array function, no graph).

    Returns:
        An array ``(B, C, H, W)`` of ``gy``'s dtype.
    """
    xp = backend.get_array_module(gy)
    dtype = numpy.float32 if gy.dtype == numpy.float16 else gy.dtype
    a_h = _weights_matrix(v, vw, int(H), dtype)
    a_w = _weights_matrix(u, uw, int(W), dtype)
    gx = xp.matmul(xp.matmul(a_h.T, gy.astype(dtype, copy=False)), a_w)
    return gx.astype(gy.dtype, copy=False)


#: v7's CUDA variant; the function above runs on NumPy and CuPy arrays alike.
interpolate_bilinear_gpu = interpolate_bilinear_cpu
#: v7's CUDA variant; the function above runs on NumPy and CuPy arrays alike.
interpolate_grad_bilinear_gpu = interpolate_grad_bilinear_cpu


@guarded
def resize_images(x: VariableOrArray, output_shape: Sequence[int], *, mode: str = 'bilinear',
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
    if arr.ndim != 4:  # needed before the node: its matrices are the image's size
        err = v7_type_error('ResizeImages', ('x',), (arr,), _expect_images,
                            note=f'ResizeImages: x must be 4-D (n, c, h, w), not of '
                                 f'shape {arr.shape}')
        assert err is not None
        raise err
    h, w = arr.shape[2:]
    a_h = _interpolation_matrix(out_h, h, mode, align_corners)
    a_w = _interpolation_matrix(out_w, w, mode, align_corners)
    return ResizeImages(a_h, a_w).apply((x,))[0]
