"""The categorical distribution over one-hot vectors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, distribution
from chainer.distributions import utils
from chainer.distributions.categorical import (
    _ClassProbabilities,
    kl_classes,
    probabilities,
    sample_indices,
)
from chainer.functions.array import where
from chainer.functions.math import sum as sum_mod
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class OneHotCategorical(_ClassProbabilities):
    """Categorical distribution over one-hot vectors: the ``i``-th unit vector with
    probability :math:`p_i`.

    Events have the shape ``(k,)``; samples have the dtype of ``p``.

    Args:
        p: the probabilities of the classes on the last axis (summing to 1).

    Raises:
        ValueError: in debug mode, when ``p`` is not a probability vector.
    """

    def __init__(self, p: Variable | ArrayLike) -> None:
        self._p, self._logit = probabilities('OneHotCategorical', p, None)

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.p.shape[-1:]

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        """The log-probability of the one-hot vectors ``x`` (last axis over the classes)."""
        x = utils.as_points(x, self.p)
        terms = where.where(x.array != 0, x * self.log_p, self.p.dtype.type(0))
        return sum_mod.sum(terms, axis=-1)

    @property
    def mean(self) -> Variable:
        return self.p

    @property
    def variance(self) -> Variable:
        return self.p * (1 - self.p)

    @property
    def support(self) -> str:
        return 'one-hot vectors'

    def sample_n(self, n: int) -> Variable:
        p = self.p.array
        xp = backend.get_array_module(p)
        eye = xp.eye(p.shape[-1], dtype=p.dtype)
        return Variable(eye[sample_indices(p, n)], requires_grad=False)


distribution.register_kl(OneHotCategorical, OneHotCategorical)(kl_classes)
