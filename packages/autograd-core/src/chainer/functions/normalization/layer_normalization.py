"""Layer normalization: normalization over the features of each sample."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.functions._guard import guarded
from chainer.functions.normalization._rows import AffineRowNormalization
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import VariableOrArray
    from chainer.variable import Variable


class LayerNormalization(AffineRowNormalization):
    """``gamma * x_hat + beta``, ``x_hat`` normalized over the features of each sample.

    Args:
        eps: added to the variance.
    """

    @property
    def label(self) -> str:
        return 'LayerNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # v7's checks, order and words (the inputs unnamed), where the project takes
        # more (x of more than 2 axes; parameters of another float dtype than x's) the
        # condition it reports is the project's
        type_check.expect(in_types.size() == 3)
        x_type, gamma_type, beta_type = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        x_ndim = type_check.eval(x_type.ndim)
        if x_ndim < 2:
            type_check.expect(x_type.ndim == 2)
        type_check.expect(gamma_type.ndim == x_ndim - 1, beta_type.ndim == x_ndim - 1)
        x_dtype, gamma_dtype = type_check.eval(x_type.dtype), type_check.eval(gamma_type.dtype)
        if gamma_dtype.kind != 'f':
            type_check.expect(gamma_type.dtype == x_type.dtype)
        if type_check.eval(beta_type.dtype) != gamma_dtype:
            type_check.expect(beta_type.dtype == (x_type if gamma_dtype == x_dtype
                                                  else gamma_type).dtype)
        type_check.expect(gamma_type.shape == beta_type.shape)
        for i in range(type_check.eval(gamma_type.ndim)):
            type_check.expect(gamma_type.shape[i] == x_type.shape[i + 1])

    def views(self, shape: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int, int]]:
        n = shape[0]
        d = int(numpy.prod(shape[1:], dtype=numpy.int64))
        return (n, d), (n, d, 1)


@guarded
def layer_normalization(x: VariableOrArray, gamma: VariableOrArray, beta: VariableOrArray,
                        eps: float = 1e-5) -> Variable:
    """Layer normalization.

    Each sample (a row of ``x``) is normalized to zero mean and unit variance
    over its features, then ``gamma`` and ``beta`` scale and shift each
    feature. See Ba et al., "Layer Normalization" (2016).

    Args:
        x: the input variable, of shape ``(N, D)`` (or ``(N, ...)``: all the
            axes after the first are the features).
        gamma: the scaling parameter, of shape ``x.shape[1:]``.
        beta: the shifting parameter, of the shape of ``gamma``.
        eps: added to the variance.

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``gamma`` or ``beta`` do not fit ``x``.
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
