"""Stacked LSTMs over variable-length sequences: ``NStepLSTM`` and ``NStepBiLSTM``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.links.rnn.n_step_rnn import NStepRNNBase
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray



class NStepLSTMBase(NStepRNNBase):
    """Base of the stacked LSTM links: eight weights ``w0 .. w7`` per layer and direction.

    See :func:`chainer.functions.n_step_lstm` for their roles. Arguments as
    :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    n_weights = 8

    @property
    def n_cells(self) -> int:
        """Two state arrays: ``hx`` and ``cx``."""
        return 2

    # v7's signature: an LSTM takes the cell states too, unlike NStepRNNBase.forward
    def forward(self, hx: VariableOrArray | None,  # type: ignore[override]
                cx: VariableOrArray | None, xs: Sequence[VariableOrArray],
                **kwargs: Any) -> tuple[Variable, Variable, list[Any]]:
        """Run the LSTM over the sequences ``xs``.

        Args:
            hx: initial hidden states, of shape ``(n_layers * directions,
                len(xs), out_size)``, or None for zeros.
            cx: initial cell states, of the shape of ``hx``, or None for zeros.
            xs: a list of sequences, ``xs[i]`` of shape ``(length_i, in_size)``.

        Returns:
            ``(hy, cy, ys)``: the last hidden and cell states and the list of
            output sequences, ``ys[i]`` of shape ``(length_i, out_size * directions)``.
        """
        hy, cy, ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked unidirectional LSTM over variable-length sequences.

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> lstm = L.NStepLSTM(n_layers=2, in_size=3, out_size=4, dropout=0.0)
        >>> xs = [np.ones((5, 3), np.float32), np.ones((2, 3), np.float32)]
        >>> hy, cy, ys = lstm(None, None, xs)
        >>> hy.shape, cy.shape
        ((2, 2, 4), (2, 2, 4))
        >>> [y.shape for y in ys]
        [(5, 4), (2, 4)]
    """

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_lstm`."""
        return functions.n_step_lstm(*args)


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bidirectional LSTM over variable-length sequences."""

    use_bi_direction = True

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_bilstm`."""
        return functions.n_step_bilstm(*args)
