"""L2 normalization of vectors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import grad_by_recompute, retained_inputs
from chainer.functions.math.sqrt import sqrt
from chainer.functions.math.sum import sum as f_sum
from chainer.utils import numeric_args, type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    axes = (numeric_args.as_int(axis),) if numeric_args.is_int(axis) else tuple(axis)
    for a in axes:
        if not -ndim <= a < max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
            raise ValueError(f'normalize: axis {a} is out of bounds for an input of {ndim} axes')
    return tuple(a % ndim for a in axes) if ndim else ()


class NormalizeL2(FunctionNode):
    """``y = x / (||x||_2 + eps)``, the norm taken over ``axis``.

    Args:
        eps: added to the norm.
        axis: an int or a tuple of ints.
    """

    def __init__(self, eps: float = 1e-5, axis: int | tuple[int, ...] = 1) -> None:
        self.eps = eps
        self.axis = axis

    @property
    def label(self) -> str:
        return 'NormalizeL2'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        x_type, = in_types  # unnamed (in_types[0]), as in v7
        type_check.expect(x_type.dtype.kind == 'f')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        axes = self._axes = _axes(self.axis, x.ndim)
        cdt = numpy.dtype(numpy.float32) if x.dtype == numpy.float16 else x.dtype
        xc = x.astype(cdt, copy=False)
        self.norm = norm = xp.sqrt((xc * xc).sum(axis=axes, keepdims=True))
        return utils.force_array(xc / (norm + cdt.type(self.eps)), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x = retained_inputs(self)[0].array
        xp = backend.get_array_module(x)
        norm = self.norm
        cdt = norm.dtype.type
        xc = x.astype(norm.dtype, copy=False)
        g, = grad_outputs
        assert g is not None
        gy = g.array.astype(norm.dtype, copy=False)
        den = norm + cdt(self.eps)
        dot = (gy * xc).sum(axis=self._axes, keepdims=True)
        # d||x||/dx = x / ||x||, taken as 0 at x = 0
        coef = dot / (den * den * xp.where(norm == 0, cdt(1), norm))
        gx = gy / den - xc * coef
        return utils.force_array(gx, x.dtype),

    def _composed(self, x: Any) -> tuple[Any]:

        norm = sqrt(f_sum(x * x, axis=self._axes, keepdims=True))
        return x / (norm + x.dtype.type(self.eps)),


@guarded
def normalize(x: VariableOrArray, eps: float = 1e-5,
              axis: int | tuple[int, ...] = 1) -> Variable:
    """L2 normalization: ``y = x / (sqrt(sum(x ** 2, axis)) + eps)``.

    Args:
        x: the input variable.
        eps: added to the norm, so that a zero vector gives zeros.
        axis: the axis or the tuple of axes the norm is taken over.

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        ValueError: for an axis out of range.
        chainer.utils.type_check.InvalidType: when ``x`` is not a float array.
    """
    return NormalizeL2(eps, axis).apply((x,))[0]
