"""Gated recurrent units: ``StatelessGRU``, ``StatefulGRU`` and ``GRU`` (stateful)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.links.rnn._state import StatefulMixin
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray


class GRUBase(Chain):
    """The six Linear links of a GRU: ``W_r, W_z, W`` (input), ``U_r, U_z, U`` (state).

    Args:
        in_size: the input size (None: read off the first input).
        out_size: the state size.
        init: initializer of the input weights.
        inner_init: initializer of the state weights.
        bias_init: initializer of all the biases.
    """

    def __init__(self, in_size: int | None, out_size: int, init: InitializerSpec | None = None,
                 inner_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = None) -> None:
        super().__init__()
        with self.init_scope():
            self.W_r = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_r = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W_z = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_z = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)


class StatelessGRU(GRUBase):
    """GRU layer without a state of its own: ``h_new = link(h, x)``.

    ::

        r = sigmoid(W_r x + U_r h)
        z = sigmoid(W_z x + U_z h)
        h_bar = tanh(W x + U (r * h))
        h_new = z * h_bar + (1 - z) * h

    Args:
        in_size: the input size (None: read off the first input).
        out_size: the state size.
        init, inner_init, bias_init: as :class:`GRUBase`.
    """

    def __init__(self, in_size: int | None, out_size: int, init: InitializerSpec | None = None,
                 inner_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = None) -> None:
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size

    def forward(self, h: VariableOrArray, x: VariableOrArray) -> Variable:
        """One step from the state ``h`` with the input ``x``; returns the new state."""
        r = functions.sigmoid(self.W_r(x) + self.U_r(h))
        z = functions.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = functions.tanh(self.W(x) + self.U(r * h))
        return functions.linear_interpolate(z, h_bar, h)


class StatefulGRU(StatefulMixin, GRUBase):
    """GRU layer keeping its state ``h`` across calls (see :class:`StatelessGRU`).

    The first call after :meth:`reset_state` starts from a zero state.

    Args:
        in_size: the input size.
        out_size: the state size.
        init, inner_init: as :class:`GRUBase`.
        bias_init: initializer of the biases (zero).

    Attributes:
        h: the state (a Variable or None).
    """

    _state_names = ('h',)

    def __init__(self, in_size: int | None, out_size: int, init: InitializerSpec | None = None,
                 inner_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = 0) -> None:
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.h: Variable | None = None

    def set_state(self, h: Variable) -> None:
        """Set the state ``h`` (a Variable, moved to the link's device).

        Raises:
            TypeError: when ``h`` is not a Variable.
        """
        self.h = self._adopt_state(h, 'h')

    def forward(self, x: VariableOrArray) -> Variable:
        """One step with the input ``x``; returns (and keeps) the new state."""
        z = self.W_z(x)
        h_bar = self.W(x)
        h = self.h
        if h is not None:
            r = functions.sigmoid(self.W_r(x) + self.U_r(h))
            z += self.U_z(h)
            h_bar += self.U(r * h)
        z = functions.sigmoid(z)
        h_bar = functions.tanh(h_bar)
        self.h = z * h_bar if h is None else functions.linear_interpolate(z, h_bar, h)
        return self.h


class GRU(StatefulGRU):
    """Stateful GRU (the same as :class:`StatefulGRU`, called with the input only).

    Chainer v1's ``GRU`` was stateless; calling this one with ``(h, x)`` raises
    an error that points to :class:`StatelessGRU`.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Variable:
        """Run one step on the single argument ``x``.

        Raises:
            ValueError: unless exactly one positional argument is given.
        """
        n = len(args)
        if n != 1:
            msg = f'GRU takes exactly one argument (the input), {n} given.'
            if n == 2:
                msg += (' chainer.links.GRU is stateful since Chainer v2; use '
                        'chainer.links.StatelessGRU for GRU(h, x).')
            raise ValueError(msg)
        return super().__call__(args[0], **kwargs)
