"""StatefulZoneoutLSTM: an LSTM whose states are regularized by zoneout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.links.rnn._state import StatefulMixin, zeros_state
from chainer.links.rnn.peephole import interleaved_gates
from chainer.utils import argument
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class StatefulZoneoutLSTM(StatefulMixin, Chain):
    """LSTM layer with zoneout (Krueger et al., 2016), keeping its state across calls.

    The new cell state and output are computed as in an LSTM, then in
    training mode each unit keeps its previous value with probability
    ``c_ratio`` (cell) or ``h_ratio`` (output), see
    :func:`chainer.functions.zoneout`.

    Args:
        in_size: the input size.
        out_size: the output (state) size.
        c_ratio: the zoneout ratio of the cell state.
        h_ratio: the zoneout ratio of the output.

    Attributes:
        upward, lateral: the Linear links to the interleaved gate sources.
        c, h: the cell state and the last output (Variables or None).

    Raises:
        ValueError: for the removed ``train`` argument.
        TypeError: for another keyword argument.
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size: int, out_size: int, c_ratio: float = 0.5,
                 h_ratio: float = 0.5, **kwargs: Any) -> None:
        argument.parse_kwargs(
            kwargs, train='train argument is not supported anymore. Use chainer.using_config')
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
        self.c: Variable | None = None
        self.h: Variable | None = None

    def forward(self, x: VariableOrArray) -> Variable:
        """One step: update ``c`` and ``h`` with the input ``x``; return ``h``."""
        batch = len(x)
        h = self.h if self.h is not None else zeros_state(self, batch, self.state_size,
                                                           x.dtype)
        c = self.c if self.c is not None else zeros_state(self, batch, self.state_size,
                                                           x.dtype)
        lstm_in = self.upward(x) + self.lateral(h)
        a, i, f, o = interleaved_gates(lstm_in)
        c_tmp = functions.tanh(a) * functions.sigmoid(i) + functions.sigmoid(f) * c
        self.c = functions.zoneout(c, c_tmp, self.c_ratio)
        self.h = functions.zoneout(h, functions.sigmoid(o) * functions.tanh(c_tmp),
                                   self.h_ratio)
        return self.h
