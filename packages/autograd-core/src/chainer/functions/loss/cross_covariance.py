"""Cross-covariance penalty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.functions._composite import CompositeNode
from chainer.functions._guard import guarded
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.loss._util import check_reduce, check_types
from chainer.functions.math.matmul import matmul
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


def centered(x: Variable) -> Variable:
    """``x`` minus its mean over axis 0 (differentiable)."""
    n = max(x.shape[0], 1)
    mean = _sum(x, axis=0) * (1.0 / n)
    return x - broadcast_to(mean, x.shape)


def _reduce_penalty(cov: Variable, reduce: str) -> Variable:
    """``sum(cov ** 2) / 2`` for ``reduce='half_squared_sum'``, else ``cov`` itself."""
    if reduce == 'half_squared_sum':
        return _sum(cov * cov) * 0.5
    return cov


class _PenaltyNode(CompositeNode):
    """A covariance penalty as one node, given its ``reduce`` (checked here).

    Args:
        reduce: ``'half_squared_sum'`` or ``'no'``.
    """

    def __init__(self, reduce: str = 'half_squared_sum') -> None:
        check_reduce(reduce, ('half_squared_sum', 'no'))
        self.reduce = reduce


@guarded
def cross_covariance(y: VariableOrArray, z: VariableOrArray,
                     reduce: str = 'half_squared_sum') -> Variable:
    """Cross-covariance penalty between ``y`` and ``z``.

    The cross-covariance matrix is ``C = (y - mean(y)).T (z - mean(z)) / N``
    with the means taken over the batch axis.

    Args:
        y: float variable of shape (N, M).
        z: float variable of shape (N, K), of the dtype of ``y``.
        reduce: ``'half_squared_sum'`` (``sum(C ** 2) / 2``, a scalar) or
            ``'no'`` (the matrix ``C`` of shape (M, K)).

    Returns:
        A variable of the penalty.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    check_reduce(reduce, ('half_squared_sum', 'no'))

    def check(y_t: Any, z_t: Any) -> None:
        type_check.expect(y_t.dtype.kind == 'f', y_t.dtype == z_t.dtype,
                          y_t.ndim == 2, z_t.ndim == 2, y_t.shape[0] == z_t.shape[0])

    check_types('CrossCovariance', ('y', 'z'), (y, z), check)
    y = as_variable(y)
    z = as_variable(z)
    cov = matmul(centered(y), centered(z), transa=True) * (1.0 / max(y.shape[0], 1))
    return _reduce_penalty(cov, reduce)


class CrossCovariance(_PenaltyNode):
    """:func:`cross_covariance` as one node: ``(y, z)`` to the penalty.

    Args:
        reduce: ``'half_squared_sum'`` or ``'no'``, as in :func:`cross_covariance`.
    """

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        y, z = xs
        return cross_covariance(y, z, self.reduce),
