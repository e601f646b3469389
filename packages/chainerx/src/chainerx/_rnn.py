"""Recurrent cells and stacked recurrent networks: ``lstm``, ``slstm`` and the n-step
(bidirectional) LSTM, GRU and plain RNN over variable-length batches, as compositions of
the differentiable routines (gradients of any order come from those).

Gate layout as in Chainer: the cell functions take the gate inputs ``a, i, f, o``
interleaved along axis 1 (unit ``k`` of gate ``j`` at ``4 k + j``); the n-step LSTM's
eight weights per layer are ``W_i, W_f, W_a, W_o`` on the input then the same on the
hidden state, the GRU's six ``W_r, W_z, W_h`` on each side, the RNN's two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chainerx import _manipulation, _math, _nn
from chainerx._array import ndarray
from chainerx._errors import DimensionError, DtypeError

Step = Callable[[ndarray, list[ndarray], Sequence[ndarray], Sequence[ndarray]], list[ndarray]]


def _gates(x: ndarray, n_units: int) -> list[ndarray]:
    """The four interleaved gate inputs of *x* (B, 4 H, ...)."""
    r = _manipulation.reshape(x, (x.shape[0], n_units, 4) + x.shape[2:])
    return [r[:, :, j] for j in range(4)]


def _check_cell(c: ndarray, x: ndarray, name: str) -> None:
    if c.dtype.kind != 'f' or x.dtype != c.dtype:
        raise DtypeError(f'{name}: c and x must share a float dtype, not {c.dtype.name} and '
                         f'{x.dtype.name}')
    if (c.ndim < 2 or x.ndim != c.ndim or x.shape[0] > c.shape[0]
            or x.shape[1] != 4 * c.shape[1] or x.shape[2:] != c.shape[2:]):
        raise DimensionError(f'{name}: x of shape {x.shape} does not fit c of shape '
                             f'{c.shape} (x is (B, 4 H, ...), B at most that of c)')


def lstm(c: ndarray, x: ndarray) -> tuple[ndarray, ndarray]:
    """One LSTM step: from cell state *c* (B', H, ...) and gate inputs *x* (B, 4 H, ...)
    (``a, i, f, o`` interleaved, B <= B'), ``c_new = tanh(a) sigmoid(i) + c sigmoid(f)``
    and ``h = sigmoid(o) tanh(c_new)``; rows of *c* beyond B pass through to ``c_new``.

    Raises:
        DtypeError: non-float or different dtypes.
        DimensionError: shapes that do not fit.
    """
    _check_cell(c, x, 'lstm')
    b = x.shape[0]
    a, i, f, o = _gates(x, c.shape[1])
    head = c[:b] if b < c.shape[0] else c
    c_new = _math.add(_math.multiply(_math.tanh(a), _math.sigmoid(i)),
                      _math.multiply(head, _math.sigmoid(f)))
    h = _math.multiply(_math.sigmoid(o), _math.tanh(c_new))
    if b < c.shape[0]:
        c_new = _manipulation.concatenate([c_new, c[b:]], 0)
    return c_new, h


def slstm(c_prev1: ndarray, c_prev2: ndarray, x1: ndarray, x2: ndarray
          ) -> tuple[ndarray, ndarray]:
    """The S-LSTM cell merging two children: ``c = tanh(a1) sigmoid(i1) + tanh(a2)
    sigmoid(i2) + c_prev1 sigmoid(f1) + c_prev2 sigmoid(f2)`` and ``h = tanh(c)
    sigmoid(o1 + o2)``, the gates of each child interleaved in *x1*, *x2* as for
    :func:`lstm`.

    Raises:
        DtypeError, DimensionError: as :func:`lstm`, or children that differ.
    """
    _check_cell(c_prev1, x1, 'slstm')
    if c_prev2.shape != c_prev1.shape or x2.shape != x1.shape or x1.shape[0] != c_prev1.shape[0]:
        raise DimensionError('slstm: the two children must have the same shapes')
    if c_prev2.dtype != c_prev1.dtype or x2.dtype != x1.dtype:
        raise DtypeError('slstm: the two children must have the same dtype')
    a1, i1, f1, o1 = _gates(x1, c_prev1.shape[1])
    a2, i2, f2, o2 = _gates(x2, c_prev1.shape[1])
    terms = [_math.multiply(_math.tanh(a1), _math.sigmoid(i1)),
             _math.multiply(_math.tanh(a2), _math.sigmoid(i2)),
             _math.multiply(c_prev1, _math.sigmoid(f1)),
             _math.multiply(c_prev2, _math.sigmoid(f2))]
    c = terms[0]
    for t in terms[1:]:
        c = _math.add(c, t)
    h = _math.multiply(_math.tanh(c), _math.sigmoid(_math.add(o1, o2)))
    return c, h


def _affine(x: ndarray, h: ndarray, ws: Sequence[ndarray], bs: Sequence[ndarray], j: int,
            k: int) -> ndarray:
    return _math.add(_nn.linear(x, ws[j], bs[j]), _nn.linear(h, ws[j + k], bs[j + k]))


def _lstm_step(x: ndarray, states: list[ndarray], ws: Sequence[ndarray],
               bs: Sequence[ndarray]) -> list[ndarray]:
    h, c = states

    def pre(j: int) -> ndarray:
        return _affine(x, h, ws, bs, j, 4)

    c_new = _math.add(_math.multiply(_math.sigmoid(pre(1)), c),
                      _math.multiply(_math.sigmoid(pre(0)), _math.tanh(pre(2))))
    return [_math.multiply(_math.sigmoid(pre(3)), _math.tanh(c_new)), c_new]


def _gru_step(x: ndarray, states: list[ndarray], ws: Sequence[ndarray],
              bs: Sequence[ndarray]) -> list[ndarray]:
    h, = states
    r = _math.sigmoid(_affine(x, h, ws, bs, 0, 3))
    z = _math.sigmoid(_affine(x, h, ws, bs, 1, 3))
    new = _math.tanh(_math.add(_nn.linear(x, ws[2], bs[2]),
                               _math.multiply(r, _nn.linear(h, ws[5], bs[5]))))
    return [_math.add(new, _math.multiply(z, _math.subtract(h, new)))]


def _rnn_step(activation: str) -> Step:
    act = _math.relu if activation == 'relu' else _math.tanh

    def step(x: ndarray, states: list[ndarray], ws: Sequence[ndarray],
             bs: Sequence[ndarray]) -> list[ndarray]:
        return [act(_affine(x, states[0], ws, bs, 0, 1))]

    return step


def _run_direction(step: Step, xs: list[ndarray], states: list[ndarray],
                   ws: Sequence[ndarray], bs: Sequence[ndarray], reverse: bool
                   ) -> tuple[list[ndarray], list[ndarray]]:
    """One layer in one direction: the outputs per time step and the final states (rows
    of sequences that ended keep their last state)."""
    ys: list[ndarray] = [xs[0]] * len(xs)
    order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
    for t in order:
        b = xs[t].shape[0]
        n = states[0].shape[0]
        cur = [s[:b] if b < n else s for s in states]
        new = step(xs[t], cur, ws, bs)
        ys[t] = new[0]
        states = [nw if b == n else _manipulation.concatenate([nw, s[b:]], 0)
                  for nw, s in zip(new, states)]
    return ys, states


def _n_step(name: str, step: Step, n_weights: int, n_layers: int,
            states: list[ndarray], ws: Sequence[Sequence[ndarray]],
            bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray], bidirectional: bool
            ) -> tuple[list[ndarray], list[ndarray]]:
    """A stacked (bidirectional) RNN of *step* cells: the final states (each stacked
    over layers and directions) and the last layer's outputs per time step."""
    n_dir = 2 if bidirectional else 1
    if n_layers < 1:
        raise DimensionError(f'{name}: n_layers must be positive')
    if len(ws) != n_layers * n_dir or len(bs) != n_layers * n_dir:
        raise DimensionError(f'{name}: ws and bs need {n_layers * n_dir} lists')
    if any(len(w) != n_weights for w in ws) or any(len(b) != n_weights for b in bs):
        raise DimensionError(f'{name}: each list of ws and bs holds {n_weights} arrays')
    xs = list(xs)
    if not xs:
        raise DimensionError(f'{name}: xs must hold at least one time step')
    for t in range(1, len(xs)):
        if xs[t].shape[0] > xs[t - 1].shape[0]:
            raise DimensionError(f'{name}: the batch sizes of xs must not increase')
    finals: list[list[ndarray]] = [[] for _ in states]
    for layer in range(n_layers):
        outs = []
        for d in range(n_dir):
            i = layer * n_dir + d
            ys, last = _run_direction(step, xs, [s[i] for s in states], ws[i], bs[i], d == 1)
            outs.append(ys)
            for k, s in enumerate(last):
                finals[k].append(s)
        xs = outs[0] if n_dir == 1 else [
            _manipulation.concatenate([f, b], 1) for f, b in zip(outs[0], outs[1])]
    return [_manipulation.stack(f, 0) for f in finals], xs


def n_step_lstm(n_layers: int, hx: ndarray, cx: ndarray, ws: Sequence[Sequence[ndarray]],
                bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]
                ) -> tuple[ndarray, ndarray, list[ndarray]]:
    """A stacked LSTM over the time steps *xs* (batch sizes not increasing): returns
    ``(hy, cy, ys)``, the final hidden and cell states (n_layers, B, H) and the last
    layer's output at each step."""
    (hy, cy), ys = _n_step('n_step_lstm', _lstm_step, 8, n_layers, [hx, cx], ws, bs, xs,
                           False)
    return hy, cy, ys


def n_step_bilstm(n_layers: int, hx: ndarray, cx: ndarray, ws: Sequence[Sequence[ndarray]],
                  bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]
                  ) -> tuple[ndarray, ndarray, list[ndarray]]:
    """:func:`n_step_lstm` with a second LSTM over the reversed steps in each layer
    (states (2 n_layers, B, H), outputs of both directions joined: (B_t, 2 H))."""
    (hy, cy), ys = _n_step('n_step_bilstm', _lstm_step, 8, n_layers, [hx, cx], ws, bs, xs,
                           True)
    return hy, cy, ys


def n_step_gru(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]],
               bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]
               ) -> tuple[ndarray, list[ndarray]]:
    """A stacked GRU over the time steps *xs*: returns ``(hy, ys)``."""
    (hy,), ys = _n_step('n_step_gru', _gru_step, 6, n_layers, [hx], ws, bs, xs, False)
    return hy, ys


def n_step_bigru(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]],
                 bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]
                 ) -> tuple[ndarray, list[ndarray]]:
    """:func:`n_step_gru` in both directions."""
    (hy,), ys = _n_step('n_step_bigru', _gru_step, 6, n_layers, [hx], ws, bs, xs, True)
    return hy, ys


def _activation(activation: str) -> str:
    if activation not in ('tanh', 'relu'):
        raise ValueError(f"activation must be 'tanh' or 'relu', not {activation!r}")
    return activation


def n_step_rnn(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]],
               bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray],
               activation: str = 'tanh') -> tuple[ndarray, list[ndarray]]:
    """A stacked plain RNN (``h = act(W0 x + b0 + W1 h + b1)``, *activation* ``'tanh'``
    or ``'relu'``) over the time steps *xs*: returns ``(hy, ys)``."""
    (hy,), ys = _n_step('n_step_rnn', _rnn_step(_activation(activation)), 2, n_layers, [hx],
                        ws, bs, xs, False)
    return hy, ys


def n_step_birnn(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]],
                 bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray],
                 activation: str = 'tanh') -> tuple[ndarray, list[ndarray]]:
    """:func:`n_step_rnn` in both directions."""
    (hy,), ys = _n_step('n_step_birnn', _rnn_step(_activation(activation)), 2, n_layers,
                        [hx], ws, bs, xs, True)
    return hy, ys
