"""Randomized leaky rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class RReLU(FunctionNode):
    """``x`` for ``x >= 0``, ``r * x`` elsewhere, with random slopes ``r`` in training."""

    def __init__(self, lower: float = 1. / 8, upper: float = 1. / 3,
                 r: NdArray | None = None) -> None:
        if not 0.0 <= lower < 1.0:
            raise ValueError(f'l must be in the range [0, 1), got {lower}')
        if not 0.0 < upper <= 1.0:
            raise ValueError(f'u must be in the range (0, 1], got {upper}')
        if not lower < upper:
            raise ValueError(f'l must be less than u, got l={lower}, u={upper}')
        self.lower = lower
        self.upper = upper
        self.r = r

    @property
    def label(self) -> str:
        return 'RReLU'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, None)  # unnamed (in_types[0]), as in v7
        x_type, = in_types
        if self.r is not None:
            type_check.expect(x_type.dtype == self.r.dtype)
            type_check.expect(x_type.shape == tuple(self.r.shape))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        if chainer.config.train:
            if self.r is None:
                if xp is numpy:
                    r = numpy.random.uniform(self.lower, self.upper, x.shape)
                else:
                    r = xp.random.uniform(self.lower, self.upper, x.shape, dtype=x.dtype)
                self.r = r.astype(x.dtype, copy=False)
        else:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, dtype=x.dtype)
        self._positive = x >= 0
        return utils.force_array(xp.where(self._positive, x, x * self.r), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return _RReLUGrad(self._positive, self.r).apply(grad_outputs)


class _RReLUGrad(FunctionNode):
    """``gy`` where the input was non-negative, ``r * gy`` elsewhere (linear in gy)."""

    def __init__(self, positive: Any, r: Any) -> None:
        self.positive = positive
        self.r = r

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        return utils.force_array(xp.where(self.positive, gy, gy * self.r), gy.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return _RReLUGrad(self.positive, self.r).apply(grad_outputs)


@guarded
def rrelu(x: VariableOrArray, l: float = 1. / 8, u: float = 1. / 3,
          **kwargs: VariableOrArray | bool | None) -> Variable | tuple[Variable, NdArray]:
    """Randomized leaky ReLU: ``x`` if ``x >= 0`` else ``r * x``.

    In training mode (``chainer.config.train``) each element gets its own slope
    ``r`` drawn from ``U(l, u)`` (or taken from the ``r`` argument); in test mode
    ``r = (l + u) / 2`` everywhere.

    Args:
        x: input variable or array of a float dtype.
        l: the lower bound of the slopes, in ``[0, 1)``.
        u: the upper bound of the slopes, in ``(0, 1]``, greater than ``l``.
        r: (keyword) the slopes to use in training mode, an array of the shape
            and dtype of ``x``.
        return_r: (keyword) also return the slopes used.

    Returns:
        The output variable, or ``(y, r)`` when ``return_r`` is true.

    Raises:
        ValueError: for bounds out of range, or an unknown keyword argument.
    """
    r = kwargs.pop('r', None)
    return_r = kwargs.pop('return_r', False)
    if 'train' in kwargs:
        raise ValueError('train argument is not supported anymore. '
                         'Use chainer.using_config')
    if kwargs:
        raise TypeError(f'rrelu() got unexpected keyword argument(s): {", ".join(kwargs)}')
    if isinstance(r, Variable):
        r = r.array
    if isinstance(r, bool):
        raise TypeError('rrelu() argument r must be an array, not bool')
    func = RReLU(l, u, r)
    y, = func.apply((x,))
    if return_r:
        assert func.r is not None  # set by forward
        return y, func.r
    return y
