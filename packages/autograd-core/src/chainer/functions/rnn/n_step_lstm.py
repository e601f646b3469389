"""Stacked (bidirectional) LSTM over variable-length sequences."""

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

# The gates are stacked as (i, f, o, a) so that the three sigmoids are one block;
# in v7's order the input-side weights are W0 = i, W1 = f, W2 = a, W3 = o.
_X_ORDER = (0, 1, 3, 2)
_H_ORDER = (4, 5, 7, 6)


class NStepLSTMLayer(NStepLayer):
    """One layer and direction of :func:`n_step_lstm` (see :class:`NStepLayer`)."""

    n_weights = 8
    use_cell = True

    @property
    def label(self) -> str:
        return 'NStepLSTMLayer'

    def run_forward(self, xp: Xp, x: NdArray, states: list[NdArray], ws: list[NdArray],
                    bs: list[NdArray]) -> tuple[NdArray, ...]:
        h, c = states
        n = h.shape[1]
        total = self._steps.total
        wh_t = self.stacked_t(xp, ws, _H_ORDER)
        gates = xp.matmul(x, self.stacked_t(xp, ws, _X_ORDER))
        gates += xp.concatenate([bs[i] + bs[j] for i, j in zip(_X_ORDER, _H_ORDER)])
        cs = xp.empty((total, n), x.dtype)
        tanh_cs = xp.empty_like(cs)
        ys = xp.empty_like(cs)
        h_prev = xp.empty_like(cs)
        c_prev = xp.empty_like(cs)
        for rows, b in self._steps.forward:
            if b == 0:
                continue
            g = gates[rows]
            h_prev[rows] = h[:b]
            c_prev[rows] = c[:b]
            g += xp.matmul(h[:b], wh_t)
            sigmoid_(g[:, :3 * n], xp)
            xp.tanh(g[:, 3 * n:], out=g[:, 3 * n:])
            cr = cs[rows]
            xp.multiply(g[:, :n], g[:, 3 * n:], out=cr)
            cr += g[:, n:2 * n] * c_prev[rows]
            tc = tanh_cs[rows]
            xp.tanh(cr, out=tc)
            xp.multiply(g[:, 2 * n:3 * n], tc, out=ys[rows])
            c[:b] = cr
            h[:b] = ys[rows]
        self._saved = gates, tanh_cs, h_prev, c_prev
        return ys, h, c

    def run_backward(self, xp: Xp, x: NdArray, ws: list[NdArray], gys: list[NdArray | None],
                     need_gx: bool) -> list[NdArray | None]:
        gy, ghy, gcy = gys
        gates, tanh_cs, h_prev, c_prev = self._saved
        n = tanh_cs.shape[1]
        batch = self.lengths[0] if self.lengths else 0
        gh = xp.zeros((batch, n), x.dtype) if ghy is None else ghy.copy()
        gc = xp.zeros((batch, n), x.dtype) if gcy is None else gcy.copy()
        ggates = xp.empty_like(gates)
        wh = self.stacked(xp, ws, _H_ORDER)
        for rows, b in reversed(self._steps.forward):
            if b == 0:
                continue
            ghb, gcb = gh[:b], gc[:b]
            if gy is not None:
                ghb += gy[rows]
            g = gates[rows]
            sig, a = g[:, :3 * n], g[:, 3 * n:]
            i, f, o = g[:, :n], g[:, n:2 * n], g[:, 2 * n:3 * n]
            tc = tanh_cs[rows]
            gg = ggates[rows]
            t = tc * tc
            t -= 1
            t *= o
            t *= ghb
            gcb -= t  # gc += gh * o * (1 - tanh(c) ** 2)
            xp.multiply(gcb, a, out=gg[:, :n])
            xp.multiply(gcb, c_prev[rows], out=gg[:, n:2 * n])
            xp.multiply(ghb, tc, out=gg[:, 2 * n:3 * n])
            d = 1 - sig
            d *= sig
            gg[:, :3 * n] *= d
            ga = gg[:, 3 * n:]
            xp.multiply(a, a, out=ga)
            xp.subtract(1, ga, out=ga)
            ga *= i
            ga *= gcb
            gcb *= f
            xp.matmul(gg, wh, out=gh[:b])
        gx = xp.matmul(ggates, self.stacked(xp, ws, _X_ORDER)) if need_gx else None
        gwx = xp.matmul(ggates.T, x)
        gwh = xp.matmul(ggates.T, h_prev)
        gb = row_sum(ggates, xp)
        gws: list[Any] = [None] * 8
        gbs: list[Any] = [None] * 8
        for k, (i, j) in enumerate(zip(_X_ORDER, _H_ORDER)):
            part = slice(k * n, (k + 1) * n)
            gws[i], gws[j] = gwx[part], gwh[part]
            gbs[i], gbs[j] = gb[part], gb[part].copy()
        return [gx, gh, gc] + gws + gbs

    def composed_step(self, x: Variable, states: list[Variable], ws: list[Variable],
                      bs: list[Variable]) -> list[Variable]:

        h, c = states

        def pre(j: int) -> Any:
            return linear(x, ws[j], bs[j]) + linear(h, ws[j + 4], bs[j + 4])

        c_new = sigmoid(pre(1)) * c + sigmoid(pre(0)) * tanh(pre(2))
        return [sigmoid(pre(3)) * tanh(c_new), c_new]


def n_step_lstm_base(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                     cx: VariableOrArray | None, ws: Sequence[Sequence[VariableOrArray]],
                     bs: Sequence[Sequence[VariableOrArray]], xs: Sequence[VariableOrArray],
                     use_bi_direction: bool,
                     **kwargs: Any) -> tuple[Variable, Variable, tuple[Variable, ...]]:
    """The stacked LSTM of :func:`n_step_lstm` and :func:`n_step_bilstm`.

    Args:
        n_layers, dropout_ratio, hx, cx, ws, bs, xs: as for :func:`n_step_lstm`.
        use_bi_direction: run a second LSTM over the reversed sequences in each
            layer and concatenate the two outputs.

    Returns:
        ``(hy, cy, ys)``.
    """
    check_kwargs(kwargs)
    hy, cy, ys = n_step_impl('n_step_lstm', NStepLSTMLayer, n_layers, dropout_ratio, hx, cx,
                             ws, bs, xs, use_bi_direction)
    assert cy is not None  # an LSTM layer has a cell state
    return hy, cy, ys


@guarded
def n_step_lstm(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                cx: VariableOrArray | None, ws: Sequence[Sequence[VariableOrArray]],
                bs: Sequence[Sequence[VariableOrArray]], xs: Sequence[VariableOrArray],
                **kwargs: Any) -> tuple[Variable, Variable, tuple[Variable, ...]]:
    """Stacked long short-term memory over variable-length sequences.

    For each layer and time step ``t``::

        i = sigmoid(W0 x_t + W4 h_{t-1} + b0 + b4)
        f = sigmoid(W1 x_t + W5 h_{t-1} + b1 + b5)
        a = tanh(W2 x_t + W6 h_{t-1} + b2 + b6)
        o = sigmoid(W3 x_t + W7 h_{t-1} + b3 + b7)
        c_t = f * c_{t-1} + i * a
        h_t = o * tanh(c_t)

    The hidden states of a layer are the input of the next one (with dropout
    of ratio ``dropout_ratio`` in training mode).

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(n_layers, B, N)`` (None for zeros).
        cx: the initial cell states, of the shape of ``hx`` (None for zeros).
        ws: ``n_layers`` lists of eight weight matrices: ``ws[l][0:4]`` of shape
            ``(N, I)`` (``I`` the input size; ``N`` for the layers after the
            first), ``ws[l][4:8]`` of shape ``(N, N)``.
        bs: ``n_layers`` lists of eight bias vectors of shape ``(N,)``.
        xs: the inputs of each time step, ``xs[t]`` of shape ``(B_t, I)``, the
            sequences sorted by decreasing length so that ``B_t`` does not grow
            (see :func:`~chainer.functions.transpose_sequence`).

    Returns:
        ``(hy, cy, ys)``: the last hidden and cell states of each sequence, of
        the shape of ``hx``, and a tuple of the hidden states of the last layer
        at each step, ``ys[t]`` of shape ``(B_t, N)``.

    Raises:
        ValueError: for lists of weights of the wrong length, a ``hx`` or ``cx``
            of the wrong shape, unsorted ``xs``, or the removed ``train`` and
            ``use_cudnn`` arguments.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> n_layers, in_size, out_size = 1, 3, 2
        >>> ws = [[np.full((out_size, in_size if i < 4 else out_size), 0.1, np.float32)
        ...        for i in range(8)]]
        >>> bs = [[np.zeros(out_size, np.float32) for _ in range(8)]]
        >>> hx = cx = np.zeros((n_layers, 2, out_size), np.float32)
        >>> xs = [np.ones((2, in_size), np.float32)] * 2 + [np.ones((1, in_size), np.float32)]
        >>> hy, cy, ys = F.n_step_lstm(n_layers, 0.0, hx, cx, ws, bs, xs)
        >>> hy.shape, cy.shape, [y.shape for y in ys]
        ((1, 2, 2), (1, 2, 2), [(2, 2), (2, 2), (1, 2)])
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, False, **kwargs)


@guarded
def n_step_bilstm(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                  cx: VariableOrArray | None, ws: Sequence[Sequence[VariableOrArray]],
                  bs: Sequence[Sequence[VariableOrArray]], xs: Sequence[VariableOrArray],
                  **kwargs: Any) -> tuple[Variable, Variable, tuple[Variable, ...]]:
    """Stacked bidirectional LSTM over variable-length sequences.

    As :func:`n_step_lstm`, with a second LSTM run over the reversed sequences
    in each layer; the outputs of the two directions are concatenated.

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(2 * n_layers, B, N)``: layer
            ``l``'s forward direction at ``2 l``, its backward one at ``2 l + 1``.
        cx: the initial cell states, of the shape of ``hx``.
        ws: ``2 * n_layers`` lists of eight weight matrices ordered like ``hx``;
            the input-side ones of the layers after the first are ``(N, 2 N)``.
        bs: ``2 * n_layers`` lists of eight bias vectors.
        xs: the inputs of each time step, sorted as for :func:`n_step_lstm`.

    Returns:
        ``(hy, cy, ys)``, ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: as :func:`n_step_lstm`.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, True, **kwargs)
