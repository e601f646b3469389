"""Group normalization: normalization over groups of channels of each sample."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.functions._guard import guarded
from chainer.functions.normalization._rows import AffineRowNormalization
from chainer.utils import numeric_args, type_check

if TYPE_CHECKING:
    from chainer.types import VariableOrArray
    from chainer.variable import Variable


class GroupNormalization(AffineRowNormalization):
    """``gamma * x_hat + beta``, ``x_hat`` normalized over each group of channels of a sample.

    Args:
        groups: the number of groups the channels (axis 1) are divided into.
        eps: added to the variance.
    """

    def __init__(self, groups: int, eps: float = 1e-5) -> None:
        super().__init__(eps)
        self.groups = groups

    @property
    def label(self) -> str:
        return 'GroupNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            gamma_type.dtype.kind == 'f',
            gamma_type.ndim == 1,
            gamma_type.shape[0] == x_type.shape[1],
            beta_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
        )

    def views(self, shape: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int, int]]:
        n, c = shape[:2]
        s = int(numpy.prod(shape[2:], dtype=numpy.int64))
        return (n * self.groups, c // self.groups * s), (n, c, s)


@guarded
def group_normalization(x: VariableOrArray, groups: int, gamma: VariableOrArray,
                        beta: VariableOrArray, eps: float = 1e-5) -> Variable:
    """Group normalization.

    The channels (axis 1) of each sample are divided into ``groups`` groups;
    each group is normalized to zero mean and unit variance over its channels
    and spatial axes, then ``gamma`` and ``beta`` scale and shift each channel.
    See Wu and He, "Group Normalization" (2018).

    Args:
        x: the input variable, of shape ``(N, C, ...)``.
        groups: the number of groups; it must divide ``C``.
        gamma: the scaling parameter, of shape ``(C,)``.
        beta: the shifting parameter, of shape ``(C,)``.
        eps: added to the variance.

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        TypeError: when ``groups`` is not an int.
        ValueError: when ``x`` has fewer than 2 axes or ``groups`` does not divide ``C``.
        chainer.utils.type_check.InvalidType: when ``gamma`` or ``beta`` do not fit ``x``.
    """
    if not numeric_args.is_int(groups):
        raise TypeError(f"group_normalization: groups must be an int, not {type(groups).__name__}")
    groups = numeric_args.as_int(groups)
    if x.ndim < 2:
        raise ValueError('group_normalization: x must have at least 2 axes (batch, channel), '
                         f'got shape {x.shape}')
    if groups <= 0 or x.shape[1] % groups:
        raise ValueError(f'group_normalization: groups ({groups}) must be a positive divisor '
                         f'of the number of channels ({x.shape[1]})')
    return GroupNormalization(int(groups), eps).apply((x, gamma, beta))[0]
