"""Dropout: random zeroing of elements in training."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.functions.math._util import MaskGrad
from chainer.functions.noise._util import expect_noise_shape, parse_kwargs, uniform
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class Dropout(FunctionNode):
    """``x * mask``, where ``mask`` is 0 with probability ``ratio`` and ``1 / (1 - ratio)``
    elsewhere (or a given mask)."""

    def __init__(self, dropout_ratio: float, mask: NdArray | None = None) -> None:
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError(f'dropout ratio must be in the range [0, 1), got {dropout_ratio}')
        self.dropout_ratio = dropout_ratio
        self.mask = mask

    @property
    def label(self) -> str:
        return 'Dropout'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)
        x_type, = in_types
        if self.mask is not None:
            expect_noise_shape(self.mask, 'mask', x_type, 'x')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        if self.mask is None:
            scale = x.dtype.type(1. / (1 - self.dropout_ratio))
            flag = uniform(xp, x.shape) >= self.dropout_ratio
            self.mask = xp.asarray(flag * scale, dtype=x.dtype)
        elif self.mask.dtype != x.dtype:
            self.mask = self.mask.astype(x.dtype)
        return utils.force_array(x * self.mask, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MaskGrad(self.mask).apply(grad_outputs)


@overload
def dropout(x: VariableOrArray, ratio: float = ..., *, mask: VariableOrArray | None = ...,
            return_mask: Literal[False] = ...) -> Variable: ...


@overload
def dropout(x: VariableOrArray, ratio: float = ..., *, mask: VariableOrArray | None = ...,
            return_mask: Literal[True]) -> tuple[Variable, NdArray | None]: ...


@overload
def dropout(x: VariableOrArray, ratio: float = ..., *, mask: VariableOrArray | None = ...,
            return_mask: bool) -> Variable | tuple[Variable, NdArray | None]: ...


@guarded
def dropout(x: VariableOrArray, ratio: float = .5, **kwargs: VariableOrArray | bool | None
            ) -> Variable | tuple[Variable, NdArray | None]:
    """Drop elements of ``x`` at random, in training mode.

    In training mode (``chainer.config.train``) each element is zeroed with
    probability ``ratio`` and the others are scaled by ``1 / (1 - ratio)``, so
    the expectation is unchanged. In test mode ``x`` is returned as it is.

    Args:
        x: input variable or array of a float dtype.
        ratio: the dropout ratio, in ``[0, 1)``.
        mask: (keyword) the mask to use instead of a random one: an array of the
            shape of ``x`` holding the multipliers (0 or ``1 / (1 - ratio)``);
            ``ratio`` is then ignored.
        return_mask: (keyword) also return the mask used (None in test mode),
            which can be passed back as ``mask``.

    Returns:
        The output variable, or ``(y, mask)`` when ``return_mask`` is true.

    Raises:
        ValueError: for a ratio out of range, or the removed ``train`` argument.
        TypeError: for an unknown keyword argument.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> import chainer.functions as F
        >>> x = np.ones((2, 4), np.float32)
        >>> y = F.dropout(x, ratio=0.5)
        >>> bool(np.all((y.array == 0) | (y.array == 2)))
        True
        >>> with chainer.using_config('train', False):
        ...     print(F.dropout(x, ratio=0.5).array)
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]]
    """
    mask, return_mask = parse_kwargs('dropout', kwargs, mask=None, return_mask=False)
    if isinstance(mask, Variable):
        mask = mask.array
    if chainer.config.train:
        func = Dropout(ratio, mask)
        y, = func.apply((x,))
        return (y, func.mask) if return_mask else y
    if not 0.0 <= ratio < 1.0:
        raise ValueError(f'dropout ratio must be in the range [0, 1), got {ratio}')
    y = as_variable(x)
    return (y, None) if return_mask else y


class DropoutGrad(MaskGrad):
    """The gradient of :class:`Dropout`, applied to ``(gy,)``: ``gy * mask``.

    Args:
        mask: the scaled mask of the forward pass (0 or ``1 / (1 - ratio)``).
    """

    @property
    def label(self) -> str:
        return 'DropoutGrad'


#: v7's cuDNN variant of :class:`DropoutGrad`; one node serves every backend here.
DropoutGradCuDNN = DropoutGrad
