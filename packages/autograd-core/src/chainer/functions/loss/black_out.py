"""BlackOut loss."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.functions._guard import guarded
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.concat import concat
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._util import (
    as_array,
    check_reduce,
    check_types,
    scaled_sum_variable,
)
from chainer.functions.math.exponential import log
from chainer.functions.math.exponential_m1 import expm1
from chainer.functions.math.logsumexp import logsumexp
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def black_out(x: VariableOrArray, t: VariableOrArray, W: VariableOrArray, samples: VariableOrArray,
              reduce: str = 'mean') -> Variable:
    """BlackOut loss (Ji et al., 2016): a sampled approximation of softmax.

    With ``p(y) = exp(W_y . x) / sum_{s in {t} + samples} exp(W_s . x)``, the
    loss is ``-log p(t) - sum_{s in samples} log(1 - p(s))``.

    Args:
        x: float variable of shape (B, D): the input vectors.
        t: int array of shape (B,): the correct labels.
        W: float variable of shape (V, D): the output vectors.
        samples: int array of shape (B, S): the negative samples of each example.
        reduce: ``'mean'`` (a scalar) or ``'no'`` (one loss per example).

    Returns:
        A variable of the loss.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    check_reduce(reduce, ('mean', 'no'))

    def check(x_t: Any, t_t: Any, w_t: Any, s_t: Any) -> None:
        type_check.expect(x_t.dtype.kind == 'f', x_t.ndim == 2,
                          t_t.dtype.kind == 'i', t_t.shape == x_t.shape[:1],
                          w_t.dtype == x_t.dtype, w_t.ndim == 2,
                          w_t.shape[1] == x_t.shape[1],
                          s_t.dtype.kind == 'i', s_t.ndim == 2,
                          s_t.shape[0] == x_t.shape[0])

    check_types('black_out', ('x', 't', 'W', 'samples'), (x, t, W, samples), check)
    t = as_array(t)
    samples = as_array(samples)
    x = as_variable(x)
    W = as_variable(W)
    batch, dim = x.shape
    n_sample = samples.shape[1]
    shape = (batch, n_sample, dim)
    neg = _sum(get_item(W, samples) * broadcast_to(reshape(x, (batch, 1, dim)), shape),
               axis=2)  # (B, S)
    pos = _sum(get_item(W, t) * x, axis=1)  # (B,)
    logz = logsumexp(concat([reshape(pos, (batch, 1)), neg], axis=1), axis=1)
    # log(1 - p(s)) = log(-expm1(log p(s))): accurate for p(s) near 0 and near 1
    log_p_neg = neg - broadcast_to(reshape(logz, (batch, 1)), (batch, n_sample))
    log_neg = log(-expm1(log_p_neg))
    loss = logz - pos - _sum(log_neg, axis=1)
    if reduce == 'mean':
        return scaled_sum_variable(loss, 1.0 / max(batch, 1))
    return loss
