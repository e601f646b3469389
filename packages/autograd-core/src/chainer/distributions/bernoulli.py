"""The Bernoulli distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, distribution, utils
from chainer.distributions import utils as dist_utils
from chainer.distributions.utils import _modified_xlogx
from chainer.function_node import FunctionNode
from chainer.functions._util import expect_float, retained_inputs
from chainer.functions.activation import sigmoid, softplus
from chainer.functions.math import exponential, logarithm_1p, sqrt
from chainer.functions.math.sum import sum_to
from chainer.utils import cache, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import GradInputs, GradOutputs, NdArray


class BernoulliLogProb(FunctionNode):
    """``x * logit - softplus(logit)``: the log-probability of ``x`` under a Bernoulli
    distribution of logit ``logit``; for an infinite logit (a probability of 0 or 1),
    ``log(1 - x)`` or ``log(x)``, exact at ``x`` = 0 and 1."""

    @property
    def label(self) -> str:
        return 'bernoulli_log_prob'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('logit', 'x'))
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        logit, x = inputs
        xp = backend.get_array_module(logit)
        with numpy.errstate(invalid='ignore', divide='ignore', over='ignore'):
            y = x * logit - (xp.maximum(logit, 0) + xp.log1p(xp.exp(-xp.abs(logit))))
            # At p = 1 (logit = +inf) and p = 0 (-inf), the value is the logarithm of the
            # masses at 0 and 1 interpolated linearly: log(x) and log(1 - x), exact at
            # x = 0 and 1 and finite in between.
            y = xp.where(logit == numpy.inf, xp.log(x), y)
            y = xp.where(logit == -numpy.inf, xp.log1p(-x), y)
        return utils.force_array(y, logit.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        logit, x = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        ret = []
        for i in indexes:
            g = gy * (x - sigmoid.sigmoid(logit)) if i == 0 else gy * logit
            target = (logit if i == 0 else x).shape
            ret.append(g if g.shape == target else sum_to(g, target))
        return tuple(ret)


def _bernoulli_log_prob(logit: Any, x: Any) -> Variable:
    """The log-probability of ``x`` under Bernoulli distributions of logits ``logit``.

    Args:
        logit: float variable or array.
        x: points (0 or 1 for a probability; other values extend the formula), whose
            shape broadcasts with that of ``logit``.

    Returns:
        A variable of the broadcast shape, differentiable twice.
    """
    if not isinstance(logit, Variable):
        logit = Variable(utils.force_array(logit), requires_grad=False)
    x = dist_utils.as_points(x, logit)
    return BernoulliLogProb().apply((logit, x))[0]


class Bernoulli(distribution.Distribution):
    """Bernoulli distribution: ``1`` with probability :math:`p`, else ``0``.

    Args:
        p: the probability of ``1`` (in [0, 1]); give either ``p`` or ``logit``.
        logit: :math:`\\log(p / (1 - p))`.
        binary_check: when True, :meth:`log_prob` is ``-inf`` (and :meth:`prob` 0) at
            points other than 0 and 1; otherwise it extends to them as
            ``x * logit - softplus(logit)`` (``log(x)`` where ``p`` is 1 and
            ``log(1 - x)`` where it is 0).

    Raises:
        ValueError: unless exactly one of ``p`` and ``logit`` is given; in debug mode,
            for ``p`` outside [0, 1].
    """

    def __init__(self, p: Variable | ArrayLike | None = None,
                 logit: Variable | ArrayLike | None = None, binary_check: bool = False) -> None:
        if (p is None) == (logit is None):
            raise ValueError('Bernoulli: give either p or logit (not both)')
        self._p: Variable | None
        self._logit: Variable | None
        if p is not None:
            self._p, = dist_utils.as_params('Bernoulli', p=p)
            self._logit = None
            dist_utils.check_params('Bernoulli', p=(self._p, 'probability'))
        else:
            assert logit is not None  # exactly one of the two is given
            self._logit, = dist_utils.as_params('Bernoulli', logit=logit)
            self._p = None
            dist_utils.check_params('Bernoulli', logit=(self._logit, 'not_nan'))
        self.binary_check = binary_check

    @cache.cached_property
    def p(self) -> Variable:
        """The probability of ``1``."""
        if self._p is not None:
            return self._p
        assert self._logit is not None  # __init__ sets exactly one of _p and _logit
        return sigmoid.sigmoid(self._logit)

    @cache.cached_property
    def logit(self) -> Variable:
        """The logit :math:`\\log(p / (1 - p))` (infinite where ``p`` is 0 or 1)."""
        if self._logit is not None:
            return self._logit
        p = self._p
        assert p is not None  # __init__ sets exactly one of _p and _logit
        with numpy.errstate(divide='ignore'):
            return exponential.log(p) - logarithm_1p.log1p(-p)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        param = self._p if self._p is not None else self._logit
        assert param is not None  # __init__ sets exactly one of _p and _logit
        return param.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'p': self.p}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = dist_utils.as_points(x, self.logit)
        y = _bernoulli_log_prob(self.logit, x)
        if self.binary_check:
            data = x.array
            y = dist_utils.restrict_to_support(y, (data == 0) | (data == 1), -numpy.inf)
        return y

    def prob(self, x: Variable | ArrayLike) -> Variable:
        return exponential.exp(self.log_prob(x))

    @property
    def entropy(self) -> Variable:
        p = self.p
        return -(_modified_xlogx(p) + _modified_xlogx(1 - p))

    @property
    def mean(self) -> Variable:
        return self.p

    @property
    def variance(self) -> Variable:
        return self.p * (1 - self.p)

    @property
    def stddev(self) -> Variable:
        return sqrt.sqrt(self.variance)

    @property
    def support(self) -> str:
        return '{0, 1}'

    def sample_n(self, n: int) -> Variable:
        p = self.p.array
        xp = backend.get_array_module(p)
        # Chainer v7's draws (one binomial trial each, int64), for the same seeded samples.
        x = xp.random.binomial(1, p, size=(n,) + p.shape)
        return Variable(xp.asarray(x, dtype=numpy.int64), requires_grad=False)


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1: Bernoulli, dist2: Bernoulli) -> Variable:
    # log p = -softplus(-logit), log(1 - p) = -softplus(logit)
    l1, l2 = dist1.logit, dist2.logit
    p1 = dist1.p
    return (p1 * (softplus.softplus(-l2) - softplus.softplus(-l1))
            + (1 - p1) * (softplus.softplus(l2) - softplus.softplus(l1)))
