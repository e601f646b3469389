"""Connectionist temporal classification (CTC) loss."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.loss._batch_mean import batch_mean_output
from chainer.functions.loss._util import as_array, check_reduce, log_softmax_array
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _shift(a: Any, k: int, xp: Any) -> Any:
    """``a`` shifted right by ``k`` along the last axis, filled with -inf."""
    out = xp.full_like(a, -numpy.inf)
    if k < a.shape[-1]:
        out[..., k:] = a[..., :a.shape[-1] - k]
    return out


def _unshift(a: Any, k: int, xp: Any) -> Any:
    """``a`` shifted left by ``k`` along the last axis, filled with -inf."""
    out = xp.full_like(a, -numpy.inf)
    if k < a.shape[-1]:
        out[..., :a.shape[-1] - k] = a[..., k:]
    return out


class ConnectionistTemporalClassification(FunctionNode):
    """CTC loss of unnormalized scores ``x_0, ..., x_{T-1}`` (each (B, V)).

    The forward-backward recursions run in log space over the extended label
    sequence (labels interleaved with blanks), batched over the minibatch.
    """

    _type_check_cache_attrs = ()

    def __init__(self, t: NdArray, blank_symbol: int, input_length: NdArray, label_length: NdArray,
                 reduce: str = 'mean') -> None:
        self.t = t
        self.blank_symbol = blank_symbol
        self.input_length = input_length
        self.label_length = label_length
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, tuple(f'x[{i}]' for i in range(len(in_types))))
        x0 = in_types[0]
        type_check.expect(x0.dtype.kind == 'f', x0.ndim == 2)
        for x in in_types[1:]:
            type_check.expect(x.dtype == x0.dtype, x.shape == x0.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        xp = backend.get_array_module(*inputs)
        dtype = inputs[0].dtype
        work = numpy.float32 if dtype == numpy.float16 else dtype
        x = xp.stack(inputs).astype(work, copy=False)  # (T, B, V)
        n_time, batch, n_vocab = x.shape
        log_y = log_softmax_array(x, axis=2)
        t = self.t
        n_label = t.shape[1]
        in_len = self.input_length.astype(numpy.int64)
        lab_len = self.label_length.astype(numpy.int64)
        if xp is numpy:
            if ((in_len < 0) | (in_len > n_time)).any():
                raise ValueError(f'input_length must be in [0, {n_time}]; got '
                                 f'{in_len.tolist()}')
            if ((lab_len < 0) | (lab_len > n_label)).any():
                raise ValueError(f'label_length must be in [0, {n_label}]; got '
                                 f'{lab_len.tolist()}')
            valid = numpy.arange(n_label)[None, :] < lab_len[:, None]
            if (valid & ((t < 0) | (t >= n_vocab) | (t == self.blank_symbol))).any():
                raise ValueError(f'labels must be in [0, {n_vocab}) and differ from the '
                                 f'blank symbol {self.blank_symbol}')

        # extended labels: blank, l1, blank, l2, ..., blank  (B, S)
        n_state = 2 * n_label + 1
        valid = xp.arange(n_label)[None, :] < lab_len[:, None]
        t_safe = xp.where(valid, t, self.blank_symbol).astype(numpy.int64)
        ext = xp.full((batch, n_state), self.blank_symbol, dtype=numpy.int64)
        ext[:, 1::2] = t_safe
        # a skip from s - 2 to s is allowed at a label differing from the one before
        skip = xp.zeros((batch, n_state), dtype=bool)
        if n_label > 1:
            skip[:, 3::2] = t_safe[:, 1:] != t_safe[:, :-1]
        neg_inf = xp.asarray(-numpy.inf, dtype=work)
        skip_mask = xp.where(skip, 0, neg_inf)

        # log probabilities of the extended labels at each time: (T, B, S)
        lp = xp.take_along_axis(log_y, xp.broadcast_to(ext[None], (n_time, batch, n_state)),
                                axis=2)
        states = xp.arange(n_state)[None, :]
        last = 2 * lab_len[:, None]  # index of the final blank
        final = (states == last) | ((states == last - 1) & (last > 0))

        # forward pass: log_alpha[t, b, s] includes the emission at t
        log_alpha = xp.full((n_time, batch, n_state), -numpy.inf, dtype=work)
        if n_time:
            a = xp.full((batch, n_state), -numpy.inf, dtype=work)
            a[:, 0] = lp[0, :, 0]
            if n_state > 1:
                a[:, 1] = lp[0, :, 1]
            log_alpha[0] = a
            for i in range(1, n_time):
                a = xp.logaddexp(xp.logaddexp(a, _shift(a, 1, xp)),
                                 _shift(a, 2, xp) + skip_mask) + lp[i]
                log_alpha[i] = a

        # log p(l | x): the two final states at time input_length - 1
        end = xp.clip(in_len - 1, 0, max(n_time - 1, 0))
        if n_time:
            a_end = log_alpha[end, xp.arange(batch)]  # (B, S)
            last = 2 * lab_len
            p_blank = xp.take_along_axis(a_end, last[:, None], axis=1)[:, 0]
            p_label = xp.take_along_axis(a_end, xp.maximum(last - 1, 0)[:, None], axis=1)[:, 0]
            p_label = xp.where(lab_len > 0, p_label, neg_inf)
            log_p = xp.logaddexp(p_blank, p_label)
        else:
            log_p = xp.full((batch,), -numpy.inf, dtype=work)
        # an empty input explains an empty label sequence with probability 1
        log_p = xp.where(in_len == 0, xp.where(lab_len == 0, 0, neg_inf), log_p)
        log_p = log_p.astype(work, copy=False)

        self._saved = (log_y, log_alpha, lp, skip_mask, final, in_len, ext, log_p, work)
        loss = -log_p
        return batch_mean_output(loss, dtype, self.reduce)

    def _log_beta(self, xp: Any) -> Any:
        """log_beta[t, b, s]: log prob of the rest after (t, s), without the emission at t."""
        _, log_alpha, lp, skip_mask, final, in_len, _, _, work = self._saved
        n_time, batch, n_state = lp.shape
        log_beta = xp.full((n_time, batch, n_state), -numpy.inf, dtype=work)
        b = xp.full((batch, n_state), -numpy.inf, dtype=work)
        start = xp.where(final, 0, -numpy.inf).astype(work)
        for i in range(n_time - 1, -1, -1):
            if i < n_time - 1:
                nxt = b + lp[i + 1]
                step = xp.logaddexp(xp.logaddexp(nxt, _unshift(nxt, 1, xp)),
                                    _unshift(nxt + skip_mask, 2, xp))
                b = xp.where((i < in_len - 1)[:, None], step, -numpy.inf)
            b = xp.where((in_len - 1 == i)[:, None], start, b)
            log_beta[i] = b
        return log_beta

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        g, = grad_outputs
        assert g is not None
        gy = g.array
        log_y, log_alpha, _, _, _, in_len, ext, log_p, work = self._saved
        xp = backend.get_array_module(log_y)
        n_time, batch, n_vocab = log_y.shape
        log_beta = self._log_beta(xp)
        # occupancy of each extended state, normalized by p(l | x): (T, B, S)
        feasible = xp.isfinite(log_p)
        occ = log_alpha + log_beta - xp.where(feasible, log_p, 0)[None, :, None]
        occ = xp.exp(xp.where(feasible[None, :, None], occ, -numpy.inf))
        # add the state occupancies onto the vocabulary (one label per state and
        # sequence, so no index repeats within a step)
        post = xp.zeros((n_time, batch, n_vocab), dtype=work)
        rows = xp.arange(batch)
        for s in range(ext.shape[1]):
            post[:, rows, ext[:, s]] += occ[:, :, s]
        gx = xp.exp(log_y) - post
        active = (xp.arange(n_time)[:, None] < in_len[None, :]) & feasible[None, :]
        gx *= active[:, :, None]
        if self.reduce == 'mean':
            gx *= gy.astype(work) / max(batch, 1)
        else:
            gx *= gy.astype(work)[None, :, None]
        dtype = g.dtype
        return tuple(Variable._new(gx[i].astype(dtype), False) for i in indexes)


@guarded
def connectionist_temporal_classification(x: Sequence[VariableOrArray], t: VariableOrArray,
                                          blank_symbol: int,
                                          input_length: VariableOrArray | None = None,
                                          label_length: VariableOrArray | None = None,
                                          reduce: str = 'mean') -> Variable:
    """Connectionist temporal classification loss (Graves et al., 2006).

    The negative log-likelihood of the label sequences ``t`` summed over all
    alignments with the inputs, computed with the forward-backward algorithm in
    log space. A softmax over the vocabulary is applied to ``x`` inside, so
    pass unnormalized scores.

    Args:
        x: a list or tuple of T variables of shape (B, V): the scores at each
            time step.
        t: int labels of shape (B, L) (a variable or an array).
        blank_symbol: the index of the blank in [0, V).
        input_length: int array of shape (B,): the valid length of each input
            (default: T for all).
        label_length: int array of shape (B,): the valid length of each label
            sequence (default: L for all).
        reduce: ``'mean'`` (the mean over the batch, a scalar) or ``'no'``
            (one loss per sequence, shape (B,)).

    Returns:
        A variable of the loss; infeasible alignments (inputs too short for
        their labels) give an infinite loss and a zero gradient.

    Raises:
        TypeError: when ``x`` is not a list or tuple.
        ValueError: for a bad ``blank_symbol``, ``reduce`` or lengths, or
            labels out of range or equal to the blank (checked on the CPU).
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.

    .. note:: It is differentiable only with respect to ``x``, and only once
       (its gradient is not differentiable again), as in Chainer.
    """
    if not isinstance(x, (list, tuple)):
        raise TypeError(f'x must be a list or a tuple of Variables, not {type(x).__name__}')
    if len(x) == 0:
        raise ValueError('x must hold at least one time step')
    check_reduce(reduce, ('mean', 'no'))
    x0 = as_array(x[0])
    if not numeric_args.is_int(blank_symbol) or blank_symbol < 0:
        raise ValueError(f'blank_symbol must be a non-negative integer, not {blank_symbol!r}')
    blank_symbol = numeric_args.as_int(blank_symbol)
    if x0.ndim != 2 or not blank_symbol < x0.shape[1]:
        raise ValueError(f'blank_symbol ({blank_symbol}) must be smaller than the vocabulary '
                         f'size x[0].shape[1] (x[0] has shape {x0.shape})')
    xp = backend.get_array_module(x0)
    ta = xp.asarray(as_array(t))
    if ta.dtype.kind not in 'iu' or ta.ndim != 2 or ta.shape[0] != x0.shape[0]:
        raise type_check.InvalidType(
            f'int t of shape ({x0.shape[0]}, L)', f't of dtype {ta.dtype}, shape {ta.shape}')
    batch = x0.shape[0]
    in_len = (xp.full((batch,), len(x), dtype=numpy.int32) if input_length is None
              else xp.asarray(as_array(input_length)))
    lab_len = (xp.full((batch,), ta.shape[1], dtype=numpy.int32) if label_length is None
               else xp.asarray(as_array(label_length)))
    for name, a in (('input_length', in_len), ('label_length', lab_len)):
        if getattr(a, 'dtype', numpy.dtype('f')).kind not in 'iu' or a.shape != (batch,):
            raise type_check.InvalidType(f'int {name} of shape ({batch},)',
                                         f'{name} of dtype {a.dtype}, shape {a.shape}')
    node = ConnectionistTemporalClassification(ta, int(blank_symbol), in_len, lab_len, reduce)
    return node.apply(tuple(x))[0]
