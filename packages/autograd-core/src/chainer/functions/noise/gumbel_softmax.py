"""Gumbel-softmax: a differentiable sample of a categorical distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.activation.softmax import softmax
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def gumbel_softmax(log_pi: VariableOrArray, tau: float = 0.1, axis: int = 1) -> Variable:
    """Gumbel-softmax sampling: ``softmax((log_pi + g) / tau, axis)``.

    ``g`` is drawn from the standard Gumbel distribution, so that as ``tau``
    goes to 0 the output approaches a one-hot sample of the categorical
    distribution with log-probabilities ``log_pi`` along ``axis``.

    Args:
        log_pi: unnormalized log-probabilities, of a float dtype.
        tau: the temperature (positive).
        axis: the axis of the categories.

    Returns:
        A variable of the shape and dtype of ``log_pi`` (all ones for a 0-dim
        input, which has a single category).

    Raises:
        ValueError: when ``tau`` is not positive.
        chainer.utils.type_check.InvalidType: for a non-float input or an axis
            out of range.
    """

    if not tau > 0:
        raise ValueError(f'tau must be positive, got {tau}')
    log_pi = as_variable(log_pi)
    xp = backend.get_array_module(log_pi.array)
    if log_pi.ndim == 0:
        return Variable(xp.ones((), log_pi.dtype), requires_grad=False)
    dtype = log_pi.dtype
    if dtype.kind != 'f':
        return softmax(log_pi, axis)  # raises InvalidType with the usual message
    g = xp.random.gumbel(size=log_pi.shape).astype(dtype, copy=False)
    return softmax((log_pi + g) * dtype.type(1.0 / tau), axis)
