"""StatefulPeepholeLSTM: an LSTM whose gates also look at the cell state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.links.rnn._state import StatefulMixin, zeros_state
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


def interleaved_gates(lstm_in: VariableOrArray) -> list[Variable]:
    """The gate sources ``a, i, f, o`` (each ``(B, N)``) of an interleaved ``(B, 4N)`` input."""
    batch, width = lstm_in.shape
    gates = functions.split_axis(
        functions.reshape(lstm_in, (batch, width // 4, 4)), 4, axis=2)
    return [functions.reshape(g, (batch, width // 4)) for g in gates]


class StatefulPeepholeLSTM(StatefulMixin, Chain):
    """LSTM layer with peephole connections, keeping its state across calls.

    With ``a, i, f, o`` the gate sources of ``upward(x) + lateral(h)``::

        c_new = tanh(a) * sigmoid(i + peep_i(c)) + sigmoid(f + peep_f(c)) * c
        h_new = sigmoid(o + peep_o(c_new)) * tanh(c_new)

    Args:
        in_size: the input size.
        out_size: the output (state) size.

    Attributes:
        upward, lateral: the Linear links to the ``4 * out_size`` gate sources
            (interleaved as in :func:`chainer.functions.lstm`).
        peep_i, peep_f, peep_o: the peephole Linear links (no bias).
        c, h: the cell state and the last output (Variables or None).
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size: int, out_size: int) -> None:
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = Linear(out_size, out_size, nobias=True)
            self.peep_f = Linear(out_size, out_size, nobias=True)
            self.peep_o = Linear(out_size, out_size, nobias=True)
        self.c: Variable | None = None
        self.h: Variable | None = None

    def forward(self, x: VariableOrArray) -> Variable:
        """One step: update ``c`` and ``h`` with the input ``x``; return ``h``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = zeros_state(self, len(x), self.state_size, x.dtype)
        a, i, f, o = interleaved_gates(lstm_in)
        i = functions.sigmoid(i + self.peep_i(self.c))
        f = functions.sigmoid(f + self.peep_f(self.c))
        self.c = functions.tanh(a) * i + f * self.c
        o = functions.sigmoid(o + self.peep_o(self.c))
        self.h = o * functions.tanh(self.c)
        return self.h
