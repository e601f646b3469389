"""Maxout: the maximum over groups of units."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import as_int, check_size
from chainer.functions.array.reshape import reshape
from chainer.functions.math.minmax import max as max_
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def maxout(x: VariableOrArray, pool_size: int, axis: int = 1) -> Variable:
    """Maxout: split ``axis`` (of length ``M * pool_size``) into ``(M, pool_size)``
    and take the maximum over each group of ``pool_size`` units.

    As in Chainer 7, the gradient of a group goes to every unit equal to its
    maximum (all of the ties), as with :func:`chainer.functions.max`.

    Args:
        x: input of a float dtype; typically the output of a linear layer.
        pool_size: the number of units per group (positive).
        axis: the axis holding the units.

    Returns:
        A variable shaped like ``x`` except that ``axis`` has length ``M``.

    Raises:
        ValueError: when ``pool_size`` is not positive or ``axis`` is out of range.
        chainer.utils.type_check.InvalidType: when ``pool_size`` does not divide
            the length of ``axis``.
    """

    pool_size = check_size(pool_size, 'pool_size', minimum=1)
    axis = as_int(axis, 'axis')
    shape = x.shape
    ndim = len(shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f'axis {axis} is out of bounds for an input of ndim {ndim}')
    axis %= ndim
    if shape[axis] % pool_size != 0:
        # InvalidType with v7's text alone, as Chainer 7 raises for this mismatch
        err = type_check._bare(f'x.shape[{axis}] % pool_size == 0',
                               f'{shape[axis]} % {pool_size} != 0',
                               'axis dimension must be divided by pool_size')
        err.add_note(f'the length of axis {axis} ({shape[axis]}) is not divisible by '
                     f'pool_size ({pool_size})')
        raise err
    grouped = shape[:axis] + (shape[axis] // pool_size, pool_size) + shape[axis + 1:]
    return max_(reshape(x, grouped), axis=axis + 1)
