"""Sampling grids of affine spatial transformers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.functions.array.reshape import reshape
from chainer.functions.math.matmul import matmul
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def check_removed_kwargs(kwargs: Mapping[str, object]) -> None:
    """Reject the removed ``use_cudnn`` argument and any unknown keyword."""
    if 'use_cudnn' in kwargs:
        raise ValueError("the use_cudnn argument is not supported anymore: use "
                         "chainer.using_config('use_cudnn', value) instead")
    if kwargs:
        raise TypeError(f'got unexpected keyword argument(s): {", ".join(sorted(kwargs))}')


def _base_grid(xp: Any, h: int, w: int, dtype: Any) -> Any:
    ys, xs = xp.meshgrid(xp.linspace(-1, 1, h, dtype=dtype),
                         xp.linspace(-1, 1, w, dtype=dtype), indexing='ij')
    return xp.stack([xs.reshape(-1), ys.reshape(-1), xp.ones(h * w, dtype)])


class SpatialTransformerGrid(FunctionNode):
    """``grid[n] = theta[n] @ [x_t; y_t; 1]`` over a regular ``(h, w)`` target grid."""

    def __init__(self, output_shape: tuple[int, int]) -> None:
        self.output_shape = output_shape

    @property
    def label(self) -> str:
        return 'SpatialTransformerGrid'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('theta',))
        theta = in_types[0]
        type_check.expect(theta.ndim == 3, theta.shape[1] == 2, theta.shape[2] == 3)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        theta, = inputs
        xp = backend.get_array_module(theta)
        h, w = self.output_shape
        self._base = base = _base_grid(xp, h, w, theta.dtype)
        return xp.matmul(theta, base).reshape(theta.shape[0], 2, h, w),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        h, w = self.output_shape
        g = reshape(gy, (gy.shape[0], 2, h * w))
        return matmul(g, self._base.T),


@guarded
def spatial_transformer_grid(theta: VariableOrArray, output_shape: Sequence[int],
                             **kwargs: object) -> Variable:
    """Sampling grid of a 2-D affine spatial transformer.

    The target grid has ``x_t`` (width) and ``y_t`` (height) coordinates
    spaced evenly in ``[-1, 1]``; each is mapped to a source coordinate by
    ``theta``: ``(x_s, y_s) = theta[n] @ (x_t, y_t, 1)``.

    Args:
        theta: variable of shape ``(n, 2, 3)``.
        output_shape: ``(h, w)`` of the grid.

    Returns:
        A variable of shape ``(n, 2, h, w)``: channel 0 holds ``x_s``, channel
        1 holds ``y_s``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``theta`` is not ``(n, 2, 3)`` float.
        ValueError: for the removed ``use_cudnn`` argument.
        TypeError: for an unknown keyword argument.
    """
    check_removed_kwargs(kwargs)
    h, w = (int(s) for s in output_shape)
    if h <= 0 or w <= 0:
        raise ValueError(f'output_shape must be positive, not {tuple(output_shape)}')
    return SpatialTransformerGrid((h, w)).apply((theta,))[0]
