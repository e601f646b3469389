"""Stacked GRUs over variable-length sequences: ``NStepGRU`` and ``NStepBiGRU``."""

from __future__ import annotations

from typing import Any

from chainer import functions
from chainer.links.rnn.n_step_rnn import NStepRNNBase


class NStepGRUBase(NStepRNNBase):
    """Base of the stacked GRU links: six weights ``w0 .. w5`` per layer and direction.

    See :func:`chainer.functions.n_step_gru` for their roles. Arguments as
    :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`; called as
    ``hy, ys = link(hx, xs)``.
    """

    n_weights = 6


class NStepGRU(NStepGRUBase):
    """Stacked unidirectional GRU over variable-length sequences."""

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_gru`."""
        return functions.n_step_gru(*args)


class NStepBiGRU(NStepGRUBase):
    """Stacked bidirectional GRU over variable-length sequences."""

    use_bi_direction = True

    def rnn(self, *args: Any) -> tuple[Any, ...]:
        """Apply :func:`chainer.functions.n_step_bigru`."""
        return functions.n_step_bigru(*args)
