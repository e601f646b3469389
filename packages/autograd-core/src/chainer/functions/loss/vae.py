"""Losses of variational auto-encoders: Gaussian KL divergence, Bernoulli and
Gaussian negative log-likelihoods."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.functions._guard import guarded
from chainer.functions.activation.softplus import softplus
from chainer.functions.loss._util import check_reduce, check_types, scaled_sum_variable
from chainer.functions.math.exponential import exp
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


_REDUCE = ('sum', 'mean', 'no')


def _inputs(label: str, names: tuple[str, ...], arrays: tuple[Any, ...],
            check: Callable[..., None], reduce: str) -> list[Variable]:
    """Validate ``reduce`` and the input types (``check``); the inputs as Variables."""
    check_reduce(reduce, _REDUCE)
    check_types(label, names, arrays, check)
    return [as_variable(a) for a in arrays]


def _reduce(loss: Variable, reduce: str) -> Variable:
    if reduce == 'sum':
        return _sum(loss)
    if reduce == 'mean':
        return scaled_sum_variable(loss, 1.0 / max(loss.size, 1))
    return loss


@guarded
def gaussian_kl_divergence(mean: VariableOrArray, ln_var: VariableOrArray,
                           reduce: str = 'sum') -> Variable:
    """KL divergence of ``N(mean, exp(ln_var))`` (diagonal) from ``N(0, I)``.

    Elementwise ``(mean ** 2 + exp(ln_var) - ln_var - 1) / 2``.

    Args:
        mean: float variable of the means.
        ln_var: variable of the log variances, of the shape and dtype of ``mean``.
        reduce: ``'sum'``, ``'mean'`` (both scalars) or ``'no'`` (elementwise).

    Returns:
        A variable of the divergence.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for mismatched inputs.
    """
    def check(m: Any, v: Any) -> None:
        type_check.expect(m.dtype.kind == 'f', m.dtype == v.dtype, m.shape == v.shape)

    mean, ln_var = _inputs('gaussian_kl_divergence', ('mean', 'ln_var'), (mean, ln_var),
                           check, reduce)
    loss = (mean * mean + exp(ln_var) - ln_var - 1) * 0.5
    return _reduce(loss, reduce)


@guarded
def bernoulli_nll(x: VariableOrArray, y: VariableOrArray, reduce: str = 'sum') -> Variable:
    """Negative log-likelihood of ``x`` under Bernoulli(``sigmoid(y)``).

    Elementwise ``softplus(y) - x * y`` (stable for large ``|y|``), so ``y``
    may be the raw output of a linear layer.

    Args:
        x: float variable of the observations (0/1 or probabilities).
        y: variable of the logits, of the shape and dtype of ``x``.
        reduce: ``'sum'``, ``'mean'`` (both scalars) or ``'no'`` (elementwise).

    Returns:
        A variable of the negative log-likelihood.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for mismatched inputs.
    """
    def check(x_t: Any, y_t: Any) -> None:
        type_check.expect(y_t.dtype.kind == 'f', x_t.dtype == y_t.dtype,
                          x_t.shape == y_t.shape)

    x, y = _inputs('bernoulli_nll', ('x', 'y'), (x, y), check, reduce)
    loss = softplus(y) - x * y
    return _reduce(loss, reduce)


@guarded
def gaussian_nll(x: VariableOrArray, mean: VariableOrArray, ln_var: VariableOrArray,
                 reduce: str = 'sum') -> Variable:
    """Negative log-likelihood of ``x`` under ``N(mean, exp(ln_var))`` (diagonal).

    Elementwise ``(ln_var + log(2 pi)) / 2 + (x - mean) ** 2 exp(-ln_var) / 2``.

    Args:
        x: float variable of the observations.
        mean: variable of the means.
        ln_var: variable of the log variances.
            The three must have one dtype and broadcastable shapes.
        reduce: ``'sum'``, ``'mean'`` (both scalars) or ``'no'`` (elementwise).

    Returns:
        A variable of the negative log-likelihood.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for mismatched inputs.
    """
    def check(x_t: Any, m_t: Any, v_t: Any) -> None:
        type_check.expect(x_t.dtype.kind == 'f', x_t.dtype == m_t.dtype,
                          x_t.dtype == v_t.dtype)
        type_check.expect_broadcast_shapes(x_t.shape, m_t.shape, v_t.shape)

    x, mean, ln_var = _inputs('gaussian_nll', ('x', 'mean', 'ln_var'), (x, mean, ln_var),
                              check, reduce)
    diff = x - mean
    loss = (ln_var + math.log(2 * math.pi)) * 0.5 + diff * diff * exp(-ln_var) * 0.5
    return _reduce(loss, reduce)
