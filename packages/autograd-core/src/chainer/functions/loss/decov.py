"""DeCov: penalty on the off-diagonal covariances of hidden activations."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.loss._util import check_reduce, check_types
from chainer.functions.loss.cross_covariance import _PenaltyNode, _reduce_penalty, centered
from chainer.functions.math.matmul import matmul
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def decov(h: VariableOrArray, reduce: str = 'half_squared_sum') -> Variable:
    """DeCov loss: the squared off-diagonal covariances of ``h``.

    With ``C = (h - mean(h)).T (h - mean(h)) / N`` (means over the batch axis)
    and its diagonal set to zero, the loss is ``sum(C ** 2) / 2``.

    Args:
        h: float variable of shape (N, M).
        reduce: ``'half_squared_sum'`` (a scalar) or ``'no'`` (the matrix ``C``
            with a zero diagonal, shape (M, M)).

    Returns:
        A variable of the penalty.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for an input of wrong type or shape.
    """
    check_reduce(reduce, ('half_squared_sum', 'no'))

    def check(h_t: Any) -> None:
        type_check.expect(h_t.dtype.kind == 'f', h_t.ndim == 2)

    check_types('DeCov', ('h',), (h,), check)
    h = as_variable(h)
    xp = backend.get_array_module(h.array)
    m = h.shape[1]
    off_diag = (1 - xp.eye(m)).astype(h.dtype)
    hc = centered(h)
    cov = matmul(hc, hc, transa=True) * (1.0 / max(h.shape[0], 1)) * off_diag
    return _reduce_penalty(cov, reduce)


class DeCov(_PenaltyNode):
    """:func:`decov` as one node: ``(h,)`` to the penalty.

    Args:
        reduce: ``'half_squared_sum'`` or ``'no'``, as in :func:`decov`.
    """

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        return decov(xs[0], self.reduce),
