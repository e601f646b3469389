"""NegativeSampling: the negative sampling loss with its output embeddings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import initializers
from chainer.functions.loss import negative_sampling as _negative_sampling
from chainer.links.loss._sampler import SamplingLink
from chainer.variable import Parameter

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import DTypeSpec, NdArray, VariableOrArray
    from chainer.variable import Variable


class NegativeSampling(SamplingLink):
    """Negative sampling loss layer (Mikolov et al.; see
    :func:`chainer.functions.negative_sampling`).

    Negative samples are drawn in proportion to ``counts ** power``. ``W`` has
    shape ``(len(counts), in_size)`` and starts at zero.

    Args:
        in_size: the size of the input vectors.
        counts: the frequency of each word.
        sample_size: the number of negative samples per example.
        power: the exponent applied to the counts.
        dtype: the dtype of ``W`` (``chainer.config.dtype`` by default).
    """

    def __init__(self, in_size: int, counts: Sequence[int] | NdArray, sample_size: int,
                 power: float = 0.75,
                 dtype: DTypeSpec | None = None) -> None:
        super().__init__()
        vocab_size = len(counts)
        self.sample_size = sample_size
        self._make_sampler(numpy.power(numpy.asarray(counts, dtype=numpy.float32), power))
        dtype = chainer.get_dtype(dtype)
        with self.init_scope():
            self.W = Parameter(initializers.Zero(dtype), (vocab_size, in_size))

    def forward(self, x: VariableOrArray, t: VariableOrArray, reduce: str = 'sum',
                **kwargs: Any) -> Variable | tuple[Variable, NdArray]:
        """The negative sampling loss of ``x`` ``(batch, in_size)`` with words ``t``.

        Args:
            x: the input vectors.
            t: the positive word of each example (-1 to ignore it).
            reduce: ``'sum'`` or ``'no'``.
            return_samples: (keyword) also return the samples (the positive word
                in column 0).
        """
        return _negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size, reduce=reduce, **kwargs)
