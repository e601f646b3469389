"""Stacked (bidirectional) Elman RNN (tanh or ReLU) over variable-length sequences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.functions._guard import guarded
from chainer.functions.activation.relu import relu
from chainer.functions.activation.tanh import tanh
from chainer.functions.connection.linear import linear
from chainer.functions.rnn._n_step import NStepLayer, check_kwargs, n_step_impl, row_sum

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray, VariableOrArray, Xp
    from chainer.variable import Variable

_ACTIVATIONS = ('tanh', 'relu')


class NStepRNNLayer(NStepLayer):
    """One layer and direction of :func:`n_step_rnn` (see :class:`NStepLayer`).

    Args:
        lengths: the batch size of each time step.
        reverse: process the steps from the last to the first.
        index: the position of the layer's weights in ``ws`` (named in errors).
        activation: ``'tanh'`` or ``'relu'``.
    """

    n_weights = 2

    def __init__(self, lengths: Sequence[int], reverse: bool = False, index: int = 0,
                 activation: str = 'tanh') -> None:
        super().__init__(lengths, reverse, index)
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation must be 'tanh' or 'relu', got {activation!r}")
        self.activation = activation

    @property
    def label(self) -> str:
        return f'NStepRNNLayer({self.activation})'

    def run_forward(self, xp: Xp, x: NdArray, states: list[NdArray], ws: list[NdArray],
                    bs: list[NdArray]) -> tuple[NdArray, ...]:
        h, = states
        wh_t = ws[1].T
        ys = xp.matmul(x, ws[0].T)
        ys += bs[0] + bs[1]
        h_prev = xp.empty_like(ys)
        relu = self.activation == 'relu'
        for rows, b in self._steps.forward:
            if b == 0:
                continue
            y = ys[rows]
            h_prev[rows] = h[:b]
            y += xp.matmul(h[:b], wh_t)
            if relu:
                xp.maximum(y, 0, out=y)
            else:
                xp.tanh(y, out=y)
            h[:b] = y
        self._saved = ys, h_prev
        return ys.copy(), h

    def run_backward(self, xp: Xp, x: NdArray, ws: list[NdArray], gys: list[NdArray | None],
                     need_gx: bool) -> list[NdArray | None]:
        gy, ghy = gys
        ys, h_prev = self._saved
        n = ys.shape[1]
        batch = self.lengths[0] if self.lengths else 0
        gh = xp.zeros((batch, n), x.dtype) if ghy is None else ghy.copy()
        gpre = xp.empty_like(ys)
        relu = self.activation == 'relu'
        wh = ws[1]
        for rows, b in reversed(self._steps.forward):
            if b == 0:
                continue
            ghb = gh[:b]
            if gy is not None:
                ghb += gy[rows]
            g = gpre[rows]
            y = ys[rows]
            if relu:
                xp.multiply(ghb, y > 0, out=g)
            else:
                xp.multiply(y, y, out=g)
                xp.subtract(1, g, out=g)
                g *= ghb
            xp.matmul(g, wh, out=gh[:b])
        gx = xp.matmul(gpre, ws[0]) if need_gx else None
        gb = row_sum(gpre, xp)
        return [gx, gh, xp.matmul(gpre.T, x), xp.matmul(gpre.T, h_prev), gb, gb.copy()]

    def composed_step(self, x: Variable, states: list[Variable], ws: list[Variable],
                      bs: list[Variable]) -> list[Variable]:

        act = relu if self.activation == 'relu' else tanh
        return [act(linear(x, ws[0], bs[0]) + linear(states[0], ws[1], bs[1]))]


def n_step_rnn_base(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                    ws: Sequence[Sequence[VariableOrArray]],
                    bs: Sequence[Sequence[VariableOrArray]], xs: Sequence[VariableOrArray],
                    activation: str, use_bi_direction: bool,
                    **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """The stacked RNN of :func:`n_step_rnn` and :func:`n_step_birnn`.

    Args:
        n_layers, dropout_ratio, hx, ws, bs, xs, activation: as for :func:`n_step_rnn`.
        use_bi_direction: run a second RNN over the reversed sequences in each
            layer and concatenate the two outputs.

    Returns:
        ``(hy, ys)``.
    """
    check_kwargs(kwargs)
    if activation not in _ACTIVATIONS:
        raise ValueError(f"n_step_rnn: activation must be 'tanh' or 'relu', got {activation!r}")
    hy, _, ys = n_step_impl('n_step_rnn', NStepRNNLayer, n_layers, dropout_ratio, hx, None,
                            ws, bs, xs, use_bi_direction, activation=activation)
    return hy, ys


@guarded
def n_step_rnn(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
               ws: Sequence[Sequence[VariableOrArray]], bs: Sequence[Sequence[VariableOrArray]],
               xs: Sequence[VariableOrArray], activation: str = 'tanh',
               **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """Stacked Elman RNN over variable-length sequences.

    For each layer and time step ``t``:
    ``h_t = f(W0 x_t + b0 + W1 h_{t-1} + b1)`` with ``f`` tanh or ReLU. The
    hidden states of a layer are the input of the next one (with dropout of
    ratio ``dropout_ratio`` in training mode).

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(n_layers, B, N)`` (None for zeros).
        ws: ``n_layers`` lists of two weight matrices: ``ws[l][0]`` of shape
            ``(N, I)`` (``N`` for the layers after the first), ``ws[l][1]`` ``(N, N)``.
        bs: ``n_layers`` lists of two bias vectors of shape ``(N,)``.
        xs: the inputs of each time step, ``xs[t]`` of shape ``(B_t, I)`` with
            non-increasing ``B_t``.
        activation: ``'tanh'`` or ``'relu'``.

    Returns:
        ``(hy, ys)``: the last hidden state of each sequence, of the shape of
        ``hx``, and a tuple of the hidden states of the last layer at each step.

    Raises:
        ValueError: for an unknown activation, lists of weights of the wrong
            length, a ``hx`` of the wrong shape, unsorted ``xs``, or the removed
            ``train`` and ``use_cudnn`` arguments.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, False,
                           **kwargs)


@guarded
def n_step_birnn(n_layers: int, dropout_ratio: float, hx: VariableOrArray | None,
                 ws: Sequence[Sequence[VariableOrArray]], bs: Sequence[Sequence[VariableOrArray]],
                 xs: Sequence[VariableOrArray], activation: str = 'tanh',
                 **kwargs: Any) -> tuple[Variable, tuple[Variable, ...]]:
    """Stacked bidirectional Elman RNN over variable-length sequences.

    As :func:`n_step_rnn`, with a second RNN run over the reversed sequences in
    each layer; the outputs of the two directions are concatenated.

    Args:
        n_layers: the number of layers.
        dropout_ratio: the dropout ratio applied to the input of each layer but the first.
        hx: the initial hidden states, of shape ``(2 * n_layers, B, N)``.
        ws: ``2 * n_layers`` lists of two weight matrices (the input-side ones
            of the layers after the first are ``(N, 2 N)``).
        bs: ``2 * n_layers`` lists of two bias vectors.
        xs: the inputs of each time step, sorted as for :func:`n_step_rnn`.
        activation: ``'tanh'`` or ``'relu'``.

    Returns:
        ``(hy, ys)``, ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: as :func:`n_step_rnn`.
        chainer.utils.type_check.InvalidType: for arrays that do not fit.
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, True,
                           **kwargs)
