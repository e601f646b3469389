"""Shift function (``shift``): a zero-FLOP, zero-parameter spatial operation.

See: Wu et al., "Shift: A Zero FLOP, Zero Parameter Alternative to Spatial
Convolutions" (2017).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def _pair(value: Any, name: str) -> tuple[int, int]:
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f'{name} must be an int or a pair of ints, not {value!r}')
        return int(value[0]), int(value[1])
    return int(value), int(value)


def _shifts(c: int, kh: int, kw: int) -> Iterator[tuple[int, int, int, int]]:
    # (first channel, end channel, ky, kx) of each of the kh * kw channel groups;
    # the last group takes the remaining channels and the center (no shift), so
    # the center group and the last one swap their kernel offsets
    n_groups = kh * kw
    size = c // n_groups
    center = (n_groups - 1) // 2
    for i in range(n_groups):
        g = n_groups - 1 if i == center else center if i == n_groups - 1 else i
        end = c if i == n_groups - 1 else (i + 1) * size
        yield i * size, end, g // kw - kh // 2, g % kw - kw // 2


def _span(shift: int, size: int) -> tuple[slice, slice]:
    # destination and source ranges of y[i] = x[i - shift] (zero outside)
    if shift >= 0:
        return slice(min(shift, size), size), slice(0, max(size - shift, 0))
    return slice(0, max(size + shift, 0)), slice(min(-shift, size), size)


class Shift(FunctionNode):
    """Shift each of ``kh * kw`` channel groups by its own kernel offset."""

    _type_check_cache_attrs = ('kh', 'kw')

    def __init__(self, ksize: ShapeSpec = 3, dilate: ShapeSpec = 1) -> None:
        self.kh, self.kw = _pair(ksize, 'ksize')
        if self.kh % 2 != 1:
            raise ValueError(f'kh must be odd (ksize={ksize!r})')
        if self.kw % 2 != 1:
            raise ValueError(f'kw must be odd (ksize={ksize!r})')
        self.dy, self.dx = _pair(dilate, 'dilate')
        if self.dy == 0 or self.dx == 0:
            raise ValueError(f'dilate must not be zero, not {dilate!r}')

    def channel_shifts(self, channels: int) -> list[tuple[int, int, int, int]]:
        """``(first channel, end channel, ky, kx)`` of each of the ``kh * kw`` channel
        groups of an input of ``channels`` channels: the group's channels are shifted by
        ``(ky * dy, kx * dx)`` (for exporters that express the shift as a convolution)."""
        return list(_shifts(channels, self.kh, self.kw))

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape[1] >= self.kh * self.kw,
        )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        x, = inputs
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        y = xp.zeros(x.shape, x.dtype)
        for start, end, ky, kx in _shifts(c, self.kh, self.kw):
            ry, sy = _span(ky * self.dy, h)
            rx, sx = _span(kx * self.dx, w)
            y[:, start:end, ry, rx] = x[:, start:end, sy, sx]
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        # the adjoint of a zero-filled shift is the opposite shift
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(grad_outputs)


@guarded
def shift(x: VariableOrArray, ksize: ShapeSpec = 3, dilate: ShapeSpec = 1) -> Variable:
    """Shift function.

    The channels are split into ``kh * kw`` groups (the last one takes the
    remainder); the group of kernel offset ``(i, j)`` is moved by
    ``((i - kh // 2) * dilate_y, (j - kw // 2) * dilate_x)`` pixels, filling
    with zeros; the center offset, which does not move, is given to the last group.

    Args:
        x: input of shape ``(n, c, h, w)`` with ``c >= kh * kw``.
        ksize: odd int or pair of odd ints ``(kh, kw)``.
        dilate: int or pair: the distance between neighbouring offsets.

    Returns:
        Output of the same shape as ``x``.

    Raises:
        ValueError: for an even kernel size or a zero dilation.
        chainer.utils.type_check.InvalidType: for an input that is not 4-D float
            or has fewer than ``kh * kw`` channels.
    """
    return Shift(ksize=ksize, dilate=dilate).apply((x,))[0]
