"""Minimal gated units: ``StatelessMGU`` and ``StatefulMGU`` (Zhou et al., 2016)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.links.rnn._state import StatefulMixin
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class MGUBase(Chain):
    """The two Linear links of an MGU, both from ``concat([h, x])``.

    ::

        f = sigmoid(W_f [h, x])
        h_bar = tanh(W_h [f * h, x])
        h_new = f * h_bar + (1 - f) * h

    Args:
        n_inputs: the input size.
        n_units: the state size.
    """

    def __init__(self, n_inputs: int, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.W_f = Linear(n_inputs + n_units, n_units)
            self.W_h = Linear(n_inputs + n_units, n_units)

    def _call_mgu(self, h: Any, x: Any) -> Variable:
        f = functions.sigmoid(self.W_f(functions.concat([h, x])))
        h_bar = functions.tanh(self.W_h(functions.concat([f * h, x])))
        return functions.linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """MGU layer without a state of its own: ``h_new = link(h, x)``.

    Args: as :class:`MGUBase`.
    """

    def forward(self, h: VariableOrArray, x: VariableOrArray) -> Variable:
        """One step from the state ``h`` with the input ``x``; returns the new state."""
        return self._call_mgu(h, x)


class StatefulMGU(StatefulMixin, MGUBase):
    """MGU layer keeping its state ``h`` across calls (zeros after :meth:`reset_state`).

    Args:
        in_size: the input size.
        out_size: the state size.

    Attributes:
        h: the state (a Variable or None).
    """

    _state_names = ('h',)

    def __init__(self, in_size: int, out_size: int) -> None:
        super().__init__(in_size, out_size)
        self._state_size = out_size
        self.h: Variable | None = None

    def set_state(self, h: Variable) -> None:
        """Set the state ``h`` (a Variable, moved to the link's device).

        Raises:
            TypeError: when ``h`` is not a Variable.
        """
        self.h = self._adopt_state(h, 'h')

    def forward(self, x: VariableOrArray) -> Variable:
        """One step with the input ``x``; returns (and keeps) the new state."""
        h = self.h
        if h is None:
            with chainer.using_device(self.device):
                h = Variable(self.xp.zeros((len(x), self._state_size),
                                           dtype=chainer.get_dtype()))
        self.h = self._call_mgu(h, x)
        return self.h
