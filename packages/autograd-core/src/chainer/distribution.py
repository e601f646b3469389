"""The interface of probability distributions and the KL divergence registry.

:class:`Distribution` is the base of every class of :mod:`chainer.distributions`.
:func:`register_kl` registers the closed form of the KL divergence of a pair of
distribution classes; :func:`kl_divergence` and :func:`cross_entropy` look it up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import Xp

__all__ = ['Distribution', 'cross_entropy', 'kl_divergence', 'register_kl']


def _overrides(obj: Any, name: str) -> bool:
    """Whether the class of ``obj`` overrides the :class:`Distribution` method ``name``."""
    return getattr(type(obj), name) is not getattr(Distribution, name)


class Distribution:
    """Interface of probability distributions.

    A sample has the shape ``sample_shape + batch_shape + event_shape``: the batch
    holds independent (not identically distributed) distributions fixed by the shapes
    of the parameters, each drawing events of shape ``event_shape`` whose values are in
    general not independent. Every method and property computed from parameters given
    as :class:`~chainer.Variable` is differentiable with respect to them.

    Subclasses define :attr:`batch_shape`, :attr:`params` and the methods they support;
    the others raise ``NotImplementedError``. :meth:`prob`, :meth:`cdf`,
    :meth:`log_cdf`, :meth:`survival_function`, :meth:`log_survival_function` and
    :attr:`stddev` fall back on their counterparts when a subclass defines only one.
    """

    def __repr__(self) -> str:
        try:
            shapes = f'batch_shape={self.batch_shape}, event_shape={self.event_shape}'
        except NotImplementedError:
            shapes = ''
        return f'{type(self).__name__}({shapes})'

    def _not_implemented(self, what: str) -> NotImplementedError:
        return NotImplementedError(f'{type(self).__name__} does not provide {what}')

    # -- shapes, parameters, backend ---------------------------------------------------

    @property
    def batch_shape(self) -> tuple[int, ...]:
        """The shape of the batch of independent distributions."""
        raise self._not_implemented('batch_shape')

    @property
    def event_shape(self) -> tuple[int, ...]:
        """The shape of one event (``()`` for a scalar distribution)."""
        return ()

    @property
    def params(self) -> dict[str, Variable]:
        """The parameters of the distribution: a dict of name to :class:`~chainer.Variable`."""
        raise self._not_implemented('params')

    @property
    def xp(self) -> Xp:
        """The array module (NumPy or CuPy) of the parameters."""
        return backend.get_array_module(*self.params.values())

    # -- sampling ----------------------------------------------------------------------

    def sample(self, sample_shape: int | tuple[int, ...] = ()) -> Variable:
        """Draw samples.

        Args:
            sample_shape: the leading shape of the samples (an int for one axis).

        Returns:
            A variable of shape ``sample_shape + batch_shape + event_shape``; differentiable
            with respect to the parameters where the distribution is reparameterizable.
        """
        from chainer.functions.array.reshape import reshape
        from chainer.utils.numeric_args import as_shape

        sample_shape = as_shape(sample_shape, 'sample_shape')
        n = 1
        for s in sample_shape:
            n *= s
        samples = self.sample_n(n)
        return reshape(samples, sample_shape + self.batch_shape + self.event_shape)

    def sample_n(self, n: int) -> Variable:
        """Draw ``n`` samples.

        Returns:
            A variable of shape ``(n,) + batch_shape + event_shape``.
        """
        raise self._not_implemented('sample_n')

    # -- functions of a realization ----------------------------------------------------

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        """The logarithm of the probability density (or mass) at ``x``.

        Args:
            x: points of shape ``sample_shape + batch_shape + event_shape``.

        Returns:
            A variable of shape ``sample_shape + batch_shape``.
        """
        raise self._not_implemented('log_prob')

    def prob(self, x: Variable | ArrayLike) -> Variable:
        """The probability density (or mass) at ``x``: ``exp(log_prob(x))``."""
        from chainer.functions.math.exponential import exp

        return exp(self.log_prob(x))

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        """The cumulative distribution function at ``x``."""
        if _overrides(self, 'log_cdf'):
            from chainer.functions.math.exponential import exp

            return exp(self.log_cdf(x))
        raise self._not_implemented('cdf')

    def log_cdf(self, x: Variable | ArrayLike) -> Variable:
        """The logarithm of the cumulative distribution function at ``x``."""
        if _overrides(self, 'cdf'):
            from chainer.functions.math.exponential import log

            return log(self.cdf(x))
        raise self._not_implemented('log_cdf')

    def survival_function(self, x: Variable | ArrayLike) -> Variable:
        """The survival function ``1 - cdf(x)`` at ``x``."""
        if _overrides(self, 'log_survival_function'):
            from chainer.functions.math.exponential import exp

            return exp(self.log_survival_function(x))
        return 1 - self.cdf(x)

    def log_survival_function(self, x: Variable | ArrayLike) -> Variable:
        """The logarithm of the survival function at ``x``."""
        from chainer.functions.math.exponential import log

        return log(self.survival_function(x))

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        """The inverse of the cumulative distribution function at probabilities ``x``."""
        raise self._not_implemented('icdf')

    def perplexity(self, x: Variable | ArrayLike) -> Variable:
        """The perplexity of the distribution at ``x``: ``exp(-log_prob(x))``."""
        from chainer.functions.math.exponential import exp

        return exp(-self.log_prob(x))

    # -- properties --------------------------------------------------------------------

    @property
    def entropy(self) -> Variable:
        """The entropy of each distribution of the batch (shape ``batch_shape``)."""
        raise self._not_implemented('entropy')

    @property
    def mean(self) -> Variable:
        """The mean (shape ``batch_shape + event_shape``)."""
        raise self._not_implemented('mean')

    @property
    def mode(self) -> Variable:
        """The mode (shape ``batch_shape + event_shape``)."""
        raise self._not_implemented('mode')

    @property
    def variance(self) -> Variable:
        """The variance (shape ``batch_shape + event_shape``)."""
        raise self._not_implemented('variance')

    @property
    def stddev(self) -> Variable:
        """The standard deviation: the square root of :attr:`variance`."""
        from chainer.functions.math.sqrt import sqrt

        return sqrt(self.variance)

    @property
    def covariance(self) -> Variable:
        """The covariance of the events (shape ``batch_shape + (d, d)``)."""
        raise self._not_implemented('covariance')

    @property
    def support(self) -> str:
        """A description of the support, such as ``'real'`` or ``'[0, 1]'``."""
        raise self._not_implemented('support')


_KL_REGISTRY: dict[tuple[type, type], Callable[[Any, Any], Variable]] = {}


_KL = Callable[[Any, Any], Variable]


def register_kl(Dist1: type, Dist2: type) -> Callable[[_KL], _KL]:
    """Decorator registering the KL divergence of a pair of distribution classes.

    The decorated function takes ``(dist1, dist2)`` and returns ``KL(dist1 || dist2)``;
    :func:`kl_divergence` calls it for instances of ``Dist1`` and ``Dist2`` (or of their
    subclasses, the most specific registered pair winning).

    Args:
        Dist1, Dist2: subclasses of :class:`Distribution`.

    Raises:
        TypeError: when either is not a subclass of :class:`Distribution`.
    """
    for name, cls in (('Dist1', Dist1), ('Dist2', Dist2)):
        if not (isinstance(cls, type) and issubclass(cls, Distribution)):
            raise TypeError(f'register_kl: {name} must be a subclass of chainer.Distribution, '
                            f'not {cls!r}')

    def register(kl: _KL) -> _KL:
        _KL_REGISTRY[Dist1, Dist2] = kl
        return kl

    return register


def _find_kl(type1: type, type2: type) -> _KL | None:
    kl = _KL_REGISTRY.get((type1, type2))
    if kl is not None:
        return kl
    best = None
    best_rank = None
    mro1, mro2 = type1.__mro__, type2.__mro__
    for (cls1, cls2), fn in _KL_REGISTRY.items():
        if cls1 in mro1 and cls2 in mro2:
            rank = (mro1.index(cls1), mro2.index(cls2))
            if best_rank is None or rank < best_rank:
                best, best_rank = fn, rank
    return best


def kl_divergence(dist1: Distribution, dist2: Distribution) -> Variable:
    """The Kullback-Leibler divergence ``KL(dist1 || dist2)``.

    Args:
        dist1, dist2: distributions whose pair of classes has a registered closed form
            (see :func:`register_kl`).

    Returns:
        A variable of shape ``batch_shape``.

    Raises:
        NotImplementedError: when no KL divergence is registered for the pair.
    """
    kl = _find_kl(type(dist1), type(dist2))
    if kl is None:
        raise NotImplementedError(
            f'no KL divergence is registered for {type(dist1).__name__} and '
            f'{type(dist2).__name__}: register one with chainer.register_kl')
    return kl(dist1, dist2)


def cross_entropy(dist1: Distribution, dist2: Distribution) -> Variable:
    """The cross entropy ``H(dist1, dist2) = H(dist1) + KL(dist1 || dist2)``.

    Raises:
        NotImplementedError: when no KL divergence is registered for the pair.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)
