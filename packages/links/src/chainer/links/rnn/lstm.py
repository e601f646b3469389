"""LSTM layers: the stateful ``LSTM`` and the ``StatelessLSTM``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

from chainer import functions, initializers
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.links.rnn._lstm_cell import lstm_cell
from chainer.links.rnn._state import StatefulMixin, zeros_state
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray


def _gate_views(b: Any) -> list[Any]:
    """The four gate parts ``a, i, f, o`` of an interleaved bias vector (writable views)."""
    return [b[k::4] for k in range(4)]


class LSTMBase(Chain):
    """The parameters of an LSTM layer: ``upward`` (input) and ``lateral`` (recurrent) Linears.

    ``upward`` maps the input to the ``4 * out_size`` gate sources, interleaved
    as :func:`chainer.functions.lstm` expects (unit ``k`` of gates a, i, f, o
    at rows ``4k .. 4k + 3``); ``lateral`` does the same from the previous
    output and has no bias.

    Args:
        in_size: the input size, or None to read it off the first input.
        out_size: the output (state) size; when omitted, ``in_size`` is the
            output size and the input size is lazy.
        lateral_init: initializer of the lateral weight (each ``out_size``
            block of rows separately; LeCun normal by default).
        upward_init: initializer of the upward weight (likewise).
        bias_init: initializer of the biases of the a, i and o gates (zero).
        forget_bias_init: initializer of the forget gate bias (one).
    """

    def __init__(self, in_size: int | None, out_size: int | None = None,
                 lateral_init: InitializerSpec | None = None,
                 upward_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = None,
                 forget_bias_init: InitializerSpec | None = None) -> None:
        if out_size is None:
            in_size, out_size = None, in_size
        if out_size is None:
            raise ValueError(f'{type(self).__name__} needs an output size')
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = bias_init
        self.forget_bias_init = forget_bias_init
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0, nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self) -> None:
        """Draw both weights block by block, alternating lateral and upward, then the
        biases: the order of Chainer v7's draws, so that a seeded NumPy gives the same
        parameters. With a lazy input size this waits for the first input (the lateral
        weight and the biases are zero until then)."""
        self._fill_blocks((self.lateral.W.array, self.lateral_init),
                          (self.upward.W.array, self.upward_init))
        self._initialize_bias()

    def _fill_blocks(self, *weights: tuple[Any, Any]) -> None:
        """Fill each ``state_size`` block of rows of each ``(W, init)`` pair with its
        ``init``, the blocks of the pairs taken in turn (block 0 of each, then block 1...)."""
        inits = [(W, initializers._get_initializer(init)) for W, init in weights]
        n = self.state_size
        for start in range(0, 4 * n, n):
            for W, init in inits:
                init(W[start:start + n])

    def _initialize_bias(self) -> None:
        b = self.upward.b
        if b is None:  # upward is made with a bias (its nobias is False)
            raise RuntimeError(f'{type(self).__name__}.upward has no bias')
        a, i, f, o = _gate_views(b.array)
        bias_init = initializers._get_initializer(0 if self.bias_init is None
                                                  else self.bias_init)
        forget_init = initializers._get_initializer(1 if self.forget_bias_init is None
                                                    else self.forget_bias_init)
        bias_init(a)
        bias_init(i)
        forget_init(f)
        bias_init(o)

    def _initialize_upward(self, x: Any) -> None:
        """Initialize the lazy upward weight from the first input ``x``."""
        in_size = int(numpy.prod(x.shape[1:], dtype=numpy.int64))
        self.upward.W.initialize((4 * self.state_size, in_size))
        self._initialize_params()

    @staticmethod
    def _can_fuse(x: Any, c: Any, h: Any) -> bool:
        """Whether one fused node can compute the step: 2-d input, equal non-zero batches."""
        batch = len(x)
        return (x.ndim == 2 and batch > 0 and len(c) == batch
                and (h is None or len(h) == batch))

    def _step(self, c: Any, x: Any, h: Any) -> tuple[Variable, Variable]:
        """``lstm(c, upward(x) + lateral(h))`` as one fused node (``h`` None: no lateral)."""
        return lstm_cell(c, x, self.upward.W, self.upward.b, h, self.lateral.W)

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The input and output sizes."""
        W = self.upward.W
        yield 'in_size', None if W.array is None else W.shape[1]
        yield 'out_size', self.state_size


class StatelessLSTM(LSTMBase):
    """LSTM layer without a state of its own: ``(c, h) = link(c_prev, h_prev, x)``.

    Args: as :class:`LSTMBase`.
    """

    def forward(self, c: VariableOrArray | None, h: VariableOrArray | None,
                x: VariableOrArray) -> tuple[Variable, Variable]:
        """One step from the previous cell ``c`` and output ``h`` (None for zeros).

        Returns:
            ``(c_new, h_new)``.
        """
        if self.upward.W.array is None:
            self._initialize_upward(x)
        if c is None:
            c = zeros_state(self, len(x), self.state_size, x.dtype)
        if self._can_fuse(x, c, h):
            return self._step(c, x, h)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        return functions.lstm(c, lstm_in)


class LSTM(StatefulMixin, LSTMBase):
    """Fully-connected LSTM layer keeping its cell ``c`` and output ``h`` across calls.

    Each call computes ``lstm_in = upward(x) + lateral(h)`` and applies
    :func:`chainer.functions.lstm`. The batch may shrink from one call to the
    next (sequences sorted by decreasing length): the first ``len(x)`` rows
    of the state are updated and the others kept; it may not grow.
    :meth:`reset_state` starts a new sequence.

    Args: as :class:`LSTMBase`.

    Attributes:
        c: the cell state (a Variable or None).
        h: the output of the last call (a Variable or None).

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> lstm = L.LSTM(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> h1 = lstm(x)
        >>> h2 = lstm(x)
        >>> h2.shape, lstm.c.shape
        ((2, 4), (2, 4))
        >>> lstm.reset_state()
        >>> print(lstm.h)
        None
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size: int | None, out_size: int | None = None,
                 lateral_init: InitializerSpec | None = None,
                 upward_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = None,
                 forget_bias_init: InitializerSpec | None = None) -> None:
        super().__init__(in_size, out_size, lateral_init, upward_init, bias_init,
                         forget_bias_init)
        self.c: Variable | None = None
        self.h: Variable | None = None

    def set_state(self, c: Variable, h: Variable) -> None:
        """Set the cell state ``c`` and the output ``h`` (Variables, moved to the link's device).

        Raises:
            TypeError: when ``c`` or ``h`` is not a Variable.
        """
        self.c = self._adopt_state(c, 'c')
        self.h = self._adopt_state(h, 'h')

    def forward(self, x: VariableOrArray) -> Variable:
        """One step: update the state with ``x`` and return the new output.

        Raises:
            TypeError: when the batch of ``x`` is larger than that of the state.
        """
        if self.upward.W.array is None:
            self._initialize_upward(x)
        batch = len(x)
        if self.c is None:
            self.c = zeros_state(self, batch, self.state_size, x.dtype)
        if self._can_fuse(x, self.c, self.h):
            self.c, self.h = self._step(self.c, x, self.h)
            return self.h
        lstm_in = self.upward(x)
        h_rest = None
        h = self.h
        if h is not None:
            h_size = len(h)
            if batch == 0:
                h_rest = h
            elif h_size < batch:
                raise TypeError(f'the batch size of x ({batch}) must not be larger than that '
                                f'of the previous state h ({h_size})')
            elif h_size > batch:
                h_update, h_rest = functions.split_axis(h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(h)
        self.c, y = functions.lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif batch == 0:
            self.h = h_rest
        else:
            self.h = functions.concat([y, h_rest], axis=0)
        return y
