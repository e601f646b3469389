"""Linear-chain conditional random field: negative log-likelihood and Viterbi."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.concat import concat
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._util import as_array, check_reduce, scaled_sum_variable
from chainer.functions.math.logsumexp import logsumexp
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import NdArray, VariableOrArray


def _check_inputs(label: str, cost: Any, xs: Sequence[Any], ys: Sequence[Any] | None) -> None:
    if not isinstance(xs, (list, tuple)) or len(xs) == 0:
        raise ValueError(f'{label}: xs must be a non-empty list of variables')
    c = as_array(cost)
    if c.dtype.kind != 'f' or c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise type_check.InvalidType('cost: a float (K, K) matrix',
                                     f'cost of dtype {c.dtype}, shape {c.shape}')
    n_label = c.shape[0]
    prev = None
    for i, x in enumerate(xs):
        x = as_array(x)
        if x.dtype != c.dtype or x.ndim != 2 or x.shape[1] != n_label:
            raise type_check.InvalidType(
                f'xs[{i}]: a {c.dtype} matrix of shape (B, {n_label})',
                f'xs[{i}] of dtype {x.dtype}, shape {x.shape}')
        if prev is not None and x.shape[0] > prev:
            raise ValueError(f'{label}: the batch sizes of xs must not increase (sort the '
                             f'sequences by decreasing length); xs[{i}] has {x.shape[0]} '
                             f'rows after {prev}')
        prev = x.shape[0]
    if ys is None:
        return
    if not isinstance(ys, (list, tuple)) or len(ys) != len(xs):
        raise ValueError(f'{label}: ys must be a list of the length of xs ({len(xs)})')
    for i, (x, y) in enumerate(zip(xs, ys)):
        y = as_array(y)
        if y.dtype.kind not in 'iu' or y.shape != as_array(x).shape[:1]:
            raise type_check.InvalidType(
                f'ys[{i}]: int labels of shape {as_array(x).shape[:1]}',
                f'ys[{i}] of dtype {y.dtype}, shape {y.shape}')
        if isinstance(y, numpy.ndarray) and y.size and ((y < 0) | (y >= n_label)).any():
            raise ValueError(f'{label}: labels must be in [0, {n_label}); ys[{i}] has '
                             f'{y[(y < 0) | (y >= n_label)][:5].tolist()}')


@guarded
def crf1d(cost: VariableOrArray, xs: Sequence[VariableOrArray], ys: Sequence[VariableOrArray],
          reduce: str = 'mean') -> Variable:
    """Negative log-likelihood of label sequences under a linear-chain CRF.

    With transition costs ``c[s, t]`` (from label ``s`` to ``t``) and
    per-position costs ``x_i[t]``, the score of labels ``y`` is
    ``sum_i x_i[y_i] + sum_i c[y_i, y_{i+1}]`` and the loss is
    ``log Z - score``, where ``Z`` sums ``exp(score)`` over all label
    sequences (forward algorithm with log-sum-exp).

    Sequences of different lengths are given transposed and sorted by
    decreasing length: ``xs[i]`` holds position ``i`` of every sequence longer
    than ``i``, so the batch sizes of ``xs`` never increase.

    Args:
        cost: float variable of shape (K, K): the transition costs.
        xs: list of float variables of shape (B_i, K), B_0 >= B_1 >= ...
        ys: list of int arrays of shape (B_i,): the labels.
        reduce: ``'mean'`` (the sum of the losses divided by B_0, a scalar) or
            ``'no'`` (one loss per sequence, shape (B_0,)).

    Returns:
        A variable of the loss.

    Raises:
        ValueError: for an unknown ``reduce``, mismatched lists, increasing
            batch sizes or labels out of range.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    check_reduce(reduce, ('mean', 'no'))
    _check_inputs('crf1d', cost, xs, ys)
    cost = as_variable(cost)
    xs = [as_variable(x) for x in xs]
    ys = [as_array(y) for y in ys]
    n_label = cost.shape[0]
    xp = backend.get_array_module(cost.array)
    n_batch = xs[0].shape[0]

    alpha = xs[0]
    score = get_item(xs[0], (xp.arange(n_batch), ys[0]))
    ended = []
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        batch = x.shape[0]
        if batch < alpha.shape[0]:
            ended.append(logsumexp(alpha[batch:], axis=1) - score[batch:])
            alpha = alpha[:batch]
            score = score[:batch]
        shape = (batch, n_label, n_label)
        # alpha'[b, t] = logsumexp_s(alpha[b, s] + c[s, t]) + x[b, t]
        pair = (broadcast_to(reshape(alpha, (batch, n_label, 1)), shape)
                + broadcast_to(reshape(cost, (1, n_label, n_label)), shape))
        alpha = logsumexp(pair, axis=1) + x
        score = (score + get_item(x, (xp.arange(batch), y))
                 + get_item(cost, (y_prev[:batch], y)))
    ended.append(logsumexp(alpha, axis=1) - score)
    loss = ended[0] if len(ended) == 1 else concat(ended[::-1], axis=0)
    if reduce == 'mean':
        return scaled_sum_variable(loss, 1.0 / max(n_batch, 1))
    return loss


@guarded
def argmax_crf1d(cost: VariableOrArray,
                 xs: Sequence[VariableOrArray]) -> tuple[Variable, list[NdArray]]:
    """The most probable label sequences of a linear-chain CRF (Viterbi).

    Args:
        cost: float variable of shape (K, K): the transition costs.
        xs: list of float variables of shape (B_i, K) with non-increasing
            batch sizes (see :func:`crf1d`).

    Returns:
        A tuple ``(score, path)``: ``score`` is a variable of shape (B_0,)
        holding the score of the best sequence of each batch element
        (differentiable with respect to ``cost`` and ``xs``), and ``path`` a
        list of ``len(xs)`` int32 arrays, ``path[i]`` of shape (B_i,), with the
        best labels.

    Raises:
        ValueError: for an empty ``xs`` or increasing batch sizes.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    _check_inputs('argmax_crf1d', cost, xs, None)
    cost = as_variable(cost)
    xvs = [as_variable(x) for x in xs]
    c = cost.array
    xp = backend.get_array_module(c)
    n_len = len(xvs)
    alpha = xvs[0].array
    backpointers = []
    ended_best = []  # (time, labels of the rows whose sequences end there)
    for i, x in enumerate(xvs[1:], 1):
        batch = x.shape[0]
        if batch < alpha.shape[0]:
            ended_best.append((i - 1, alpha[batch:].argmax(axis=1)))
            alpha = alpha[:batch]
        pair = alpha[:, :, None] + c[None]
        backpointers.append(pair.argmax(axis=1))
        alpha = pair.max(axis=1) + x.array

    path: list[Any] = [None] * n_len
    path[-1] = alpha.argmax(axis=1).astype(numpy.int32)
    ends = dict(ended_best)
    for i in range(n_len - 1, 0, -1):
        prev = xp.take_along_axis(backpointers[i - 1], path[i][:, None], axis=1)[:, 0]
        if i - 1 in ends:
            prev = xp.concatenate([prev, ends[i - 1]])
        path[i - 1] = prev.astype(numpy.int32)

    score = get_item(xvs[0], (xp.arange(xvs[0].shape[0]), path[0]))
    ended = []
    for i in range(1, n_len):
        batch = xvs[i].shape[0]
        if batch < score.shape[0]:
            ended.append(score[batch:])
            score = score[:batch]
        score = (score + get_item(xvs[i], (xp.arange(batch), path[i]))
                 + get_item(cost, (path[i - 1][:batch], path[i])))
    ended.append(score)
    score = ended[0] if len(ended) == 1 else concat(ended[::-1], axis=0)
    return score, path
