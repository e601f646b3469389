"""Swish activation: ``x * sigmoid(beta * x)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.activation.prelu import _reduce_axes, _weight_shape
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Swish(FunctionNode):
    """``x * sigmoid(beta * x)``, ``beta`` broadcast over axes 1..beta.ndim of ``x``."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'Swish'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # as PReLU's, with the rank written as v7's Swish writes it
        type_check.argname(in_types, ('x', 'beta'))
        x_type, beta_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', beta_type.dtype == x_type.dtype,
                          beta_type.ndim <= x_type.ndim - 1)
        beta_ndim = type_check.eval(beta_type.ndim)
        type_check.expect(beta_type.shape == x_type.shape[1:1 + beta_ndim])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, beta = inputs
        bb = beta.reshape(_weight_shape(beta.shape, x.ndim))
        return utils.force_array(x * sigmoid_array(bb * x, backend.get_array_module(x)), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, beta = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        axes = _reduce_axes(beta.ndim, x.ndim)
        shape = _weight_shape(beta.shape, x.ndim)
        if not chainer.config.enable_backprop:
            xa, g = x.array, gy.array
            bb = beta.array.reshape(shape)
            sa = sigmoid_array(bb * xa, backend.get_array_module(xa))
            # ds/dt = s (1 - s) with t = beta x
            ds = sa * (1 - sa)
            ret = []
            for i in indexes:
                if i == 0:
                    ret.append(utils.force_array(g * (sa + bb * xa * ds), g.dtype))
                else:
                    ret.append(utils.force_array((g * xa * xa * ds).sum(axis=axes),
                                                 beta.dtype))
            return tuple(ret)


        bb = reshape(beta, shape)
        s = sigmoid(bb * x)
        gds = gy * s * (1 - s)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy * s + gds * bb * x)
            else:
                ret.append(_sum(gds * x * x, axis=axes))
        return tuple(ret)


@guarded
def swish(x: VariableOrArray, beta: VariableOrArray) -> Variable:
    """Swish: ``x * sigmoid(beta * x)``.

    ``beta`` covers the leading non-batch axes of ``x`` as the weight of
    :func:`prelu` does: for ``beta`` of shape ``(s_1, ..., s_k)``, ``x`` has the
    shape ``(B, s_1, ..., s_k, ...)``.

    Args:
        x: input of a float dtype, with at least ``beta.ndim + 1`` axes.
        beta: the learnable parameter, of the dtype of ``x``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    return Swish().apply((x, beta))[0]


class SwishGrad(BackwardNode):
    """The gradients of :class:`Swish`: ``(x, beta, gy)`` to ``(gx, gbeta)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 2

    def primal(self) -> FunctionNode:
        return Swish()
