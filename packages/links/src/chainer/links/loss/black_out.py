"""BlackOut: the BlackOut loss with its output embeddings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.links.loss._sampler import SamplingLink
from chainer.variable import Parameter

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray, VariableOrArray
    from chainer.variable import Variable


class BlackOut(SamplingLink):
    """BlackOut loss layer (Ji et al., 2016; see :func:`chainer.functions.black_out`).

    Negative samples are drawn in proportion to ``counts``. ``W`` has shape
    ``(len(counts), in_size)`` and starts uninitialized (NaN): set it before use.

    Args:
        in_size: the size of the input vectors.
        counts: the frequency of each word (the noise distribution).
        sample_size: the number of negative samples per example.

    Attributes:
        sample_data: if not None, the samples to use instead of drawing them
            (an int array of shape ``(batch, sample_size)``; for tests).
    """

    sample_data: Any = None

    def __init__(self, in_size: int, counts: Sequence[int] | NdArray, sample_size: int) -> None:
        super().__init__()
        vocab_size = len(counts)
        self._make_sampler(counts)
        self.sample_size = sample_size
        with self.init_scope():
            self.W = Parameter(shape=(vocab_size, in_size))

    def forward(self, x: VariableOrArray, t: VariableOrArray) -> Variable:
        """The mean BlackOut loss of ``x`` ``(batch, in_size)`` with labels ``t``."""
        samples = self.sample_data
        if samples is None:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        return functions.black_out(x, t, self.W, samples)
