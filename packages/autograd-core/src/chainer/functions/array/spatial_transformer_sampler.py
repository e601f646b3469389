"""Bilinear sampling of images at grid points (spatial transformers)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.functions._composite import CompositeNode
from chainer.functions._guard import guarded
from chainer.functions._util import check_types
from chainer.functions.array.get_item import get_item
from chainer.functions.array.pad import pad
from chainer.functions.array.spatial_transformer_grid import check_removed_kwargs
from chainer.functions.array.transpose import transpose
from chainer.utils import type_check
from chainer.variable import Variable, as_array, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


def _check(x: Any, grid: Any) -> None:
    type_check.expect(x.dtype.kind == 'f', grid.dtype == x.dtype, x.ndim == 4,
                      grid.ndim == 4, grid.shape[1] == 2, x.shape[0] == grid.shape[0])


@guarded
def spatial_transformer_sampler(x: VariableOrArray, grid: VariableOrArray,
                                **kwargs: object) -> Variable:
    """Sample ``x`` bilinearly at the points of ``grid``.

    The coordinates lie in ``[-1, 1]``: ``(-1, -1)`` is the center of the
    top-left pixel and ``(1, 1)`` that of the bottom-right one. Points
    outside the image see zeros. Differentiable in ``x`` and ``grid`` (also
    twice, as a composition of differentiable functions).

    Args:
        x: images of shape ``(n, c, h, w)``.
        grid: variable of shape ``(n, 2, h_O, w_O)``; channel 0 is the x
            (width) coordinate, channel 1 the y (height) coordinate.

    Returns:
        A variable of shape ``(n, c, h_O, w_O)``.

    Raises:
        chainer.utils.type_check.InvalidType: on bad shapes or dtypes.
        ValueError: for the removed ``use_cudnn`` argument.
        TypeError: for an unknown keyword argument, or an input that is not an array.
    """
    check_removed_kwargs(kwargs)
    xa, ga = as_array(x), as_array(grid)
    check_types('SpatialTransformerSampler', ('x', 'grid'), (xa, ga), _check, argnames=False)
    xp = backend.get_array_module(xa, ga)
    n, _, h, w = xa.shape
    grid = as_variable(grid)
    u = (get_item(grid, (slice(None), 0)) + 1) * ((w - 1) / 2)
    v = (get_item(grid, (slice(None), 1)) + 1) * ((h - 1) / 2)
    u0 = xp.floor(u.array)
    v0 = xp.floor(v.array)
    wu1 = u - u0
    wv1 = v - v0
    wu = (1 - wu1, wu1)
    wv = (1 - wv1, wv1)

    def indices(c0: Any, size: int) -> tuple[Any, Any]:
        out = []
        for k in (0, 1):
            i = c0.astype('i') + k
            out.append(xp.where((i >= 0) & (i < size), i, size))
        return out[0], out[1]

    ui = indices(u0, w)
    vi = indices(v0, h)
    # one zero row/column at the end stands for every point outside the image
    xt = transpose(pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), 'constant'), (0, 2, 3, 1))
    batch = xp.arange(n).reshape(n, 1, 1)
    terms = []
    for a in (0, 1):
        for b in (0, 1):
            weight = (wv[a] * wu[b]).reshape(wu1.shape + (1,))
            terms.append(weight * get_item(xt, (batch, vi[a], ui[b])))
    return transpose(terms[0] + terms[1] + terms[2] + terms[3], (0, 3, 1, 2))


class SpatialTransformerSampler(CompositeNode):
    """:func:`spatial_transformer_sampler` as one node: ``(x, grid)`` to the samples.

    Differentiable in both inputs, to any order.
    """

    @property
    def label(self) -> str:
        return 'SpatialTransformerSampler'

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        x, grid = xs
        return spatial_transformer_sampler(x, grid),
