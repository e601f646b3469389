"""The categorical distribution over the class indices ``0 .. k-1``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, distribution
from chainer.distributions import utils
from chainer.distributions.utils import _modified_xlogx
from chainer.functions.activation import log_softmax, softmax
from chainer.functions.array import broadcast, reshape, select_item
from chainer.functions.math import exponential
from chainer.functions.math import sum as sum_mod
from chainer.utils import cache
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import NdArray


def sample_indices(p: NdArray, n: int) -> NdArray:
    """``n`` draws of class indices (int64) from the probabilities ``p`` of shape
    ``batch_shape + (k,)``: an array of shape ``(n,) + batch_shape``.

    The draws are those of Chainer v7 (``numpy.random.choice(k, n, p=row)`` for each
    row of ``p`` in turn), so that a seeded NumPy gives the same samples.
    """
    xp = backend.get_array_module(p)
    k = p.shape[-1]
    batch_shape = p.shape[:-1]
    rows = p.reshape(-1, k).astype(numpy.float64)
    cumulative = xp.cumsum(rows, axis=-1)
    cumulative /= cumulative[:, -1:]
    u = xp.random.random_sample((rows.shape[0], n))
    # The first class whose cumulative probability exceeds u (searchsorted, side right).
    index = (cumulative[:, None, :] <= u[:, :, None]).sum(axis=-1)
    index = xp.minimum(index, k - 1).astype(numpy.int64)
    return xp.moveaxis(index, 1, 0).reshape((n,) + batch_shape)


def probabilities(owner: str, p: Variable | ArrayLike | None,
                  logit: Variable | ArrayLike | None) -> tuple[Variable | None, Variable | None]:
    """The parameters ``(p, logit)`` of a distribution over classes, one of them None.

    Raises:
        ValueError: unless exactly one is given, or when it is 0-dimensional; in debug
            mode, when ``p`` is not a probability vector on its last axis.
    """
    if (p is None) == (logit is None):
        raise ValueError(f'{owner}: give either p or logit (not both)')
    if p is not None:
        name, (value,) = 'p', utils.as_params(owner, p=p)
    else:
        assert logit is not None  # exactly one of the two is given
        name, (value,) = 'logit', utils.as_params(owner, logit=logit)
    if value.ndim == 0:
        raise ValueError(f'{owner}: {name} needs a last axis over the classes, '
                         'but it is 0-dimensional')
    if p is not None:
        utils.check_simplex(owner, 'p', value)
        return value, None
    utils.check_params(owner, logit=(value, 'not_nan'))
    return None, value


class _ClassProbabilities(distribution.Distribution):
    """Shared parameters of the categorical distributions: ``p`` or ``logit`` over the
    last axis."""

    _p: Variable | None
    _logit: Variable | None

    @cache.cached_property
    def p(self) -> Variable:
        """The probabilities of the classes (last axis)."""
        if self._p is not None:
            return self._p
        assert self._logit is not None  # probabilities() gives exactly one of _p and _logit
        return softmax.softmax(self._logit, axis=-1)

    @cache.cached_property
    def log_p(self) -> Variable:
        """The logarithms of the probabilities of the classes."""
        if self._p is None:
            assert self._logit is not None  # probabilities() gives exactly one of _p and _logit
            return log_softmax.log_softmax(self._logit, axis=-1)
        with numpy.errstate(divide='ignore'):
            return exponential.log(self._p)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        param = self._p if self._p is not None else self._logit
        assert param is not None  # probabilities() gives exactly one of them
        return param.shape[:-1]

    @property
    def params(self) -> dict[str, Variable]:
        return {'p': self.p}

    @property
    def entropy(self) -> Variable:
        return -sum_mod.sum(_modified_xlogx(self.p), axis=-1)


class Categorical(_ClassProbabilities):
    """Categorical distribution: class ``i`` with probability :math:`p_i`.

    Samples are int32 class indices of shape ``sample_shape + batch_shape``.

    Args:
        p: the probabilities of the classes on the last axis (summing to 1).
        logit: keyword only, unnormalized log-probabilities, given instead of ``p``.

    Raises:
        ValueError: unless exactly one of ``p`` and ``logit`` is given; in debug mode,
            when ``p`` is not a probability vector.
        TypeError: for another keyword argument.
    """

    def __init__(self, p: Variable | ArrayLike | None = None, **kwargs: Any) -> None:
        logit = kwargs.pop('logit', None)
        if kwargs:
            raise TypeError(f'Categorical got unexpected keyword arguments: {sorted(kwargs)}')
        self._p, self._logit = probabilities('Categorical', p, logit)

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        """The log-probability of the class indices ``x`` (integers)."""
        data = x.array if isinstance(x, Variable) else x
        xp = backend.get_array_module(self.log_p)
        data = xp.asarray(data)
        if data.dtype.kind not in 'iu':
            raise TypeError(f'Categorical.log_prob: x must hold integer class indices, not '
                            f'{data.dtype}')
        log_p = self.log_p
        k = log_p.shape[-1]
        log_p = broadcast.broadcast_to(log_p, data.shape + (k,))
        flat = select_item.select_item(reshape.reshape(log_p, (-1, k)),
                                       data.ravel().astype(numpy.int32))
        return reshape.reshape(flat, data.shape)

    @property
    def support(self) -> str:
        return f'{{0, ..., {self.p.shape[-1] - 1}}}'

    def sample_n(self, n: int) -> Variable:
        return Variable(sample_indices(self.p.array, n), requires_grad=False)


def kl_classes(dist1: _ClassProbabilities, dist2: _ClassProbabilities) -> Variable:
    """``sum(p1 * (log p1 - log p2))`` over the classes (0 where ``p1`` is 0)."""
    return sum_mod.sum(_modified_xlogx(dist1.p) - dist1.p * dist2.log_p, axis=-1)


distribution.register_kl(Categorical, Categorical)(kl_classes)
