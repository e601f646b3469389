"""Parametric rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _check_weight(in_types: Any, names: tuple[str, str]) -> None:
    type_check.argname(in_types, names)
    x_type, w_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', w_type.dtype == x_type.dtype,
                      x_type.ndim >= w_type.ndim + 1)
    w_ndim = type_check.eval(w_type.ndim)
    type_check.expect(x_type.shape[1:1 + w_ndim] == w_type.shape)


def _weight_shape(w_shape: tuple[int, ...], x_ndim: int) -> tuple[int, ...]:
    """The shape that broadcasts a weight over axes ``1 .. w.ndim`` of ``x``."""
    return (1,) + tuple(w_shape) + (1,) * (x_ndim - len(w_shape) - 1)


def _reduce_axes(w_ndim: int, x_ndim: int) -> tuple[int, ...]:
    return (0,) + tuple(range(w_ndim + 1, x_ndim))


class PReLUFunction(FunctionNode):
    """``x`` where ``x >= 0``, ``W * x`` elsewhere, ``W`` broadcast over axes 1..W.ndim."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'PReLUFunction'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _check_weight(in_types, ('x', 'W'))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, W = inputs
        xp = backend.get_array_module(x)
        wb = W.reshape(_weight_shape(W.shape, x.ndim))
        return utils.force_array(xp.where(x >= 0, x, x * wb), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, W = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        axes = _reduce_axes(W.ndim, x.ndim)
        if not chainer.config.enable_backprop:
            xa, wa, g = x.array, W.array, gy.array
            xp = backend.get_array_module(xa)
            neg = xa < 0
            gneg = g * neg
            ret = []
            for i in indexes:
                if i == 0:
                    wb = wa.reshape(_weight_shape(wa.shape, xa.ndim))
                    ret.append(utils.force_array(xp.where(neg, g * wb, g), g.dtype))
                else:
                    ret.append(utils.force_array((gneg * xa).sum(axis=axes), wa.dtype))
            return tuple(ret)

        # Differentiable form, for double backprop.

        neg = (x.array < 0).astype(x.dtype)
        gneg = gy * neg
        ret = []
        for i in indexes:
            if i == 0:
                wb = reshape(W, _weight_shape(W.shape, x.ndim))
                ret.append(gy - gneg + gneg * wb)
            else:
                ret.append(_sum(gneg * x, axis=axes))
        return tuple(ret)


@guarded
def prelu(x: VariableOrArray, W: VariableOrArray) -> Variable:
    """Parametric ReLU: ``x`` if ``x >= 0`` else ``W * x``.

    ``W`` covers the leading non-batch axes of ``x``: for ``W`` of shape
    ``(s_1, ..., s_k)``, ``x`` has the shape ``(B, s_1, ..., s_k, ...)`` and
    ``W`` is shared over the batch and the trailing axes.

    Args:
        x: input of a float dtype, with at least ``W.ndim + 1`` axes.
        W: the slopes of the negative part, of the dtype of ``x``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    return PReLUFunction().apply((x, W))[0]


class PReLUFunctionGrad(BackwardNode):
    """The gradients of :class:`PReLUFunction`: ``(x, W, gy)`` to ``(gx, gW)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 2

    def primal(self) -> FunctionNode:
        return PReLUFunction()
