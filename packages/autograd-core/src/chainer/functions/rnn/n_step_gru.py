"""Stacked (bidirectional) GRU over variable-length sequences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.functions._guard import guarded
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.connection.linear import linear
from chainer.functions.rnn._n_step import NStepLayer, check_kwargs, n_step_impl, row_sum, sigmoid_

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray, VariableOrArray, Xp
    from chainer.variable import Variable


class NStepGRULayer(NStepLayer):
    """One layer and direction of :func:`n_step_gru` (see :class:`NStepLayer`).

    The gates are stacked in v7's order: reset ``r``, update ``z``, new ``n``.
    """

    n_weights = 6

    @property
    def label(self) -> str:
        return 'NStepGRULayer'

    def run_forward(self, xp: Xp, x: NdArray, states: list[NdArray], ws: list[NdArray],
                    bs: list[NdArray]) -> tuple[NdArray, ...]:
        h, = states
        n = h.shape[1]
        total = self._steps.total
        wh_t = self.stacked_t(xp, ws, (3, 4, 5))
        bh = xp.concatenate(bs[3:])
        gates = xp.matmul(x, self.stacked_t(xp, ws, (0, 1, 2)))
        gates += xp.concatenate(bs[:3])
        hn = xp.empty((total, n), x.dtype)
        ys = xp.empty_like(hn)
        h_prev = xp.empty_like(hn)
        for rows, b in self._steps.forward:
            if b == 0:
                continue
            g = gates[rows]
            hb = h[:b]
            h_prev[rows] = hb
            gh = xp.matmul(hb, wh_t)
            gh += bh
            rz = g[:, :2 * n]
            rz += gh[:, :2 * n]
            sigmoid_(rz, xp)
            hn[rows] = gh[:, 2 * n:]
            new = g[:, 2 * n:]
            new += g[:, :n] * gh[:, 2 * n:]
            xp.tanh(new, out=new)
            y = ys[rows]
            xp.subtract(hb, new, out=y)
            y *= g[:, n:2 * n]
            y += new
            h[:b] = y
        self._saved = gates, hn, h_prev
        return ys, h

    def run_backward(self, xp: Xp, x: NdArray, ws: list[NdArray], gys: list[NdArray | None],
                     need_gx: bool) -> list[NdArray | None]:
        gy, ghy = gys
        gates, hn, h_prev = self._saved
        n = hn.shape[1]
        batch = self.lengths[0] if self.lengths else 0
        gh = xp.zeros((batch, n), x.dtype) if ghy is None else ghy.copy()
        gx_gates = xp.empty_like(gates)
        gh_gates = xp.empty_like(gates)
        wh = self.stacked(xp, ws, (3, 4, 5))
        for rows, b in reversed(self._steps.forward):
            if b == 0:
                continue
            ghb = gh[:b]
            if gy is not None:
                ghb += gy[rows]
            g = gates[rows]
            r, z, new = g[:, :n], g[:, n:2 * n], g[:, 2 * n:]
            gg = gx_gates[rows]
            gr, gz, gn = gg[:, :n], gg[:, n:2 * n], gg[:, 2 * n:]
            # new: gh * (1 - z) * (1 - new ** 2)
            xp.multiply(new, new, out=gn)
            xp.subtract(1, gn, out=gn)
            gn *= ghb
            gn -= gn * z
            # z: gh * (h_prev - new) * z * (1 - z)
            xp.subtract(h_prev[rows], new, out=gz)
            gz *= ghb
            gz *= z
            gz -= gz * z
            # r: gn * hn * r * (1 - r)
            xp.multiply(gn, hn[rows], out=gr)
            gr *= r
            gr -= gr * r
            ggh = gh_gates[rows]
            ggh[:, :2 * n] = gg[:, :2 * n]
            xp.multiply(gn, r, out=ggh[:, 2 * n:])
            ghb *= z
            ghb += xp.matmul(ggh, wh)
        gx = xp.matmul(gx_gates, self.stacked(xp, ws, (0, 1, 2))) if need_gx else None
        gwx = xp.matmul(gx_gates.T, x)
        gwh = xp.matmul(gh_gates.T, h_prev)
        gbx = row_sum(gx_gates, xp)
        gbh = row_sum(gh_gates, xp)
        parts = [slice(k * n, (k + 1) * n) for k in range(3)]
        return ([gx, gh] + [gwx[p] for p in parts] + [gwh[p] for p in parts]
                + [gbx[p] for p in parts] + [gbh[p] for p in parts])

    def composed_step(self, x: Variable, states: list[Variable], ws: list[Variable],
                      bs: list[Variable]) -> list[Variable]:

        h, = states
        r = sigmoid(linear(x, ws[0], bs[0]) + linear(h, ws[3], bs[3]))
        z = sigmoid(linear(x, ws[1], bs[1]) + linear(h, ws[4], bs[4]))
        new = tanh(linear(x, ws[2], bs[2]) + r * linear(h, ws[5], bs[5]))
        return [new + z * (h - new)]


def n_step_gru_base(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                    ws: Sequence[Sequence[VariableOrArray]],
                    bs: Sequence[Sequence[VariableOrArray]], xs: Sequence[VariableOrArray],
                    use_bi_direction: bool,
                    **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """The stacked GRU of :func:`n_step_gru` and :func:`n_step_bigru`.

    Args:
        n_layers, dropout_ratio, hx, ws, bs, xs: as for :func:`n_step_gru`.
        use_bi_direction: run a second GRU over the reversed sequences in each
            layer and concatenate the two outputs.

    Returns:
        ``(hy, ys)``.
    """
    check_kwargs(kwargs)
    hy, _, ys = n_step_impl('n_step_gru', NStepGRULayer, n_layers, dropout_ratio, hx, None,
                            ws, bs, xs, use_bi_direction)
    return hy, ys


@guarded
def n_step_gru(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
               ws: Sequence[Sequence[VariableOrArray]], bs: Sequence[Sequence[VariableOrArray]],
               xs: Sequence[VariableOrArray],
               **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """Stacked gated recurrent units over variable-length sequences.

    For each layer and time step ``t``::

        r = sigmoid(W0 x_t + b0 + W3 h_{t-1} + b3)
        z = sigmoid(W1 x_t + b1 + W4 h_{t-1} + b4)
        n = tanh(W2 x_t + b2 + r * (W5 h_{t-1} + b5))
        h_t = (1 - z) * n + z * h_{t-1}

    The hidden states of a layer are the input of the next one (with dropout
    of ratio ``dropout_ratio`` in training mode).

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(n_layers, B, N)`` (None for zeros).
        ws: ``n_layers`` lists of six weight matrices: ``ws[l][0:3]`` of shape
            ``(N, I)`` (``N`` for the layers after the first), ``ws[l][3:6]`` ``(N, N)``.
        bs: ``n_layers`` lists of six bias vectors of shape ``(N,)``.
        xs: the inputs of each time step, ``xs[t]`` of shape ``(B_t, I)`` with
            non-increasing ``B_t``.

    Returns:
        ``(hy, ys)``: the last hidden state of each sequence, of the shape of
        ``hx``, and a tuple of the hidden states of the last layer at each step.

    Raises:
        ValueError: for lists of weights of the wrong length, a ``hx`` of the
            wrong shape, unsorted ``xs``, or the removed ``train`` and
            ``use_cudnn`` arguments.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, False, **kwargs)


@guarded
def n_step_bigru(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                 ws: Sequence[Sequence[VariableOrArray]], bs: Sequence[Sequence[VariableOrArray]],
                 xs: Sequence[VariableOrArray],
                 **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """Stacked bidirectional GRU over variable-length sequences.

    As :func:`n_step_gru`, with a second GRU run over the reversed sequences in
    each layer; the outputs of the two directions are concatenated.

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(2 * n_layers, B, N)``.
        ws: ``2 * n_layers`` lists of six weight matrices (the input-side ones
            of the layers after the first are ``(N, 2 N)``).
        bs: ``2 * n_layers`` lists of six bias vectors.
        xs: the inputs of each time step, sorted as for :func:`n_step_gru`.

    Returns:
        ``(hy, ys)``, ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: as :func:`n_step_gru`.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, True, **kwargs)
