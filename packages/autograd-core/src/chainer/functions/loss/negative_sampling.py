"""Negative sampling loss (word2vec)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode, CompositeNode
from chainer.functions._guard import guarded
from chainer.functions.activation.softplus import softplus
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._util import as_array, check_reduce, check_types
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import NdArray, VariableOrArray


_IGNORE_LABEL = -1


@overload
def negative_sampling(x: VariableOrArray, t: VariableOrArray, W: VariableOrArray,
                      sampler: Callable[[tuple[int, ...]], NdArray], sample_size: int,
                      reduce: str = ..., *, return_samples: Literal[False] = ...) -> Variable: ...


@overload
def negative_sampling(x: VariableOrArray, t: VariableOrArray, W: VariableOrArray,
                      sampler: Callable[[tuple[int, ...]], NdArray], sample_size: int,
                      reduce: str = ..., *,
                      return_samples: Literal[True]) -> tuple[Variable, NdArray]: ...


@overload
def negative_sampling(x: VariableOrArray, t: VariableOrArray, W: VariableOrArray,
                      sampler: Callable[[tuple[int, ...]], NdArray], sample_size: int,
                      reduce: str = ..., *,
                      return_samples: bool) -> Variable | tuple[Variable, NdArray]: ...


@guarded
def negative_sampling(x: VariableOrArray, t: VariableOrArray, W: VariableOrArray,
                      sampler: Callable[[tuple[int, ...]], NdArray], sample_size: int,
                      reduce: str = 'sum', **kwargs: bool) -> Variable | tuple[Variable, NdArray]:
    """Negative sampling loss.

    For each example ``x_n`` with positive word ``t_n`` and ``k`` negative
    words ``w_1..w_k`` drawn by ``sampler``, the loss is
    ``-log sigmoid(x_n . W[t_n]) - sum_i log sigmoid(-x_n . W[w_i])``
    (computed with softplus, so it is stable for large scores).

    Args:
        x: float variable of shape (B, D): the input vectors.
        t: int array of shape (B,): the positive words; -1 entries are ignored.
        W: float variable of shape (V, D): the output word vectors.
        sampler: a function taking a shape and returning an int array of that
            shape with samples from the noise distribution (e.g.
            ``WalkerAlias(...).sample``). It is called with ``(B, k + 1)``;
            column 0 is then overwritten by ``t``.
        sample_size: the number ``k`` of negative samples per example.
        reduce: ``'sum'`` (a scalar) or ``'no'`` (one loss per example, 0 for
            ignored ones).
        return_samples (bool): keyword-only; when True, also return the
            (B, k + 1) sample array (column 0 holding ``t``).

    Returns:
        The loss variable, or ``(loss, samples)`` with ``return_samples=True``.

    Raises:
        ValueError: for an unknown ``reduce`` or a sampler returning a bad array.
        TypeError: for unknown keyword arguments.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    return_samples = kwargs.pop('return_samples', False)
    if kwargs:
        raise TypeError(f'negative_sampling() got unexpected keyword arguments: '
                        f'{", ".join(sorted(kwargs))}')
    check_reduce(reduce, ('sum', 'no'))
    if int(sample_size) != sample_size or sample_size < 0:
        raise ValueError(f'sample_size must be a non-negative integer, not {sample_size!r}')

    def check(x_t: Any, t_t: Any, w_t: Any) -> None:
        type_check.expect(x_t.dtype.kind == 'f', x_t.ndim == 2,
                          t_t.dtype.kind == 'i', t_t.ndim == 1,
                          x_t.shape[0] == t_t.shape[0],
                          w_t.dtype == x_t.dtype, w_t.ndim == 2,
                          w_t.shape[1] == x_t.shape[1])

    check_types('negative_sampling', ('x', 't', 'W'), (x, t, W), check)
    ta = as_array(t)
    batch = ta.shape[0]
    xp = backend.get_array_module(ta)
    samples = sampler((batch, int(sample_size) + 1))
    if getattr(samples, 'shape', None) != (batch, int(sample_size) + 1) or \
            samples.dtype.kind not in 'iu':
        raise ValueError(f'sampler must return an int array of shape '
                         f'{(batch, int(sample_size) + 1)}, got '
                         f'{getattr(samples, "dtype", type(samples).__name__)} of shape '
                         f'{getattr(samples, "shape", None)}')
    samples = xp.array(samples, dtype=samples.dtype)
    samples[:, 0] = ta
    valid = ta != _IGNORE_LABEL
    index = samples.copy()
    index[:, 0] = xp.where(valid, ta, 0)

    x = as_variable(x)
    W = as_variable(W)
    dim = x.shape[1]
    n_col = index.shape[1]
    w = get_item(W, index)  # (B, k + 1, D)
    shape = (batch, n_col, dim)
    scores = _sum(w * broadcast_to(reshape(x, (batch, 1, dim)), shape), axis=2)
    # positive column: -log sigmoid(s) = softplus(-s); negatives: softplus(s)
    sign = numpy.ones((1, n_col), dtype=x.dtype)
    sign[0, 0] = -1
    sign = xp.asarray(sign)
    per_pair = softplus(scores * broadcast_to(sign, (batch, n_col)))
    loss = _sum(per_pair, axis=1) * valid.astype(x.dtype)
    if reduce == 'sum':
        loss = _sum(loss)
    if return_samples:
        return loss, samples
    return loss


class NegativeSamplingFunction(CompositeNode):
    """:func:`negative_sampling` as one node: ``(x, t, W)`` to the loss.

    The negative samples are drawn once, at the first forward; they are kept in
    ``samples`` (column 0 holds ``t``) and reused by the backward.

    Args:
        sampler: as in :func:`negative_sampling`.
        sample_size: the number of negative samples per example.
        reduce: ``'sum'`` or ``'no'``.
    """

    def __init__(self, sampler: Callable[[tuple[int, ...]], NdArray], sample_size: int,
                 reduce: str = 'sum') -> None:
        check_reduce(reduce, ('sum', 'no'))
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce
        self.samples: Any = None

    @property
    def label(self) -> str:
        return 'NegativeSampling'

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        x, t, W = xs
        if self.samples is None:
            loss, self.samples = negative_sampling(x, t.array, W, self.sampler,
                                                   self.sample_size, self.reduce,
                                                   return_samples=True)
            return loss,
        samples = self.samples
        return negative_sampling(x, t.array, W, lambda shape: samples, self.sample_size,
                                 self.reduce),


class NegativeSamplingFunctionGrad(BackwardNode):
    """The gradients of :class:`NegativeSamplingFunction` for given samples.

    Inputs ``(x, t, W, gloss)``; outputs ``(gx, gW)``.

    Args:
        samples: the ``(B, k + 1)`` samples of the forward pass (column 0 is ``t``).
        reduce: ``'sum'`` or ``'no'``.
    """

    n_in = 3
    wrt = (0, 2)

    def __init__(self, samples: NdArray, reduce: str = 'sum') -> None:
        self.samples = samples
        self.reduce = reduce

    def primal(self) -> FunctionNode:
        samples = self.samples
        node = NegativeSamplingFunction(lambda shape: samples, samples.shape[1] - 1,
                                        self.reduce)
        return node


# called with ChainerX arrays, the samples go back to their device (chainer._chainerx_bridge)
negative_sampling.__wrapped__._chainerx_array_outputs = True  # type: ignore[attr-defined]
