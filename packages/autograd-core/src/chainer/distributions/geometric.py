"""The geometric distribution (the number of trials up to the first success)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.distributions.utils import _modified_xlogx
from chainer.functions.math import exponential, logarithm_1p
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class Geometric(distribution.Distribution):
    """Geometric distribution, of mass :math:`p (1 - p)^{x - 1}` on the positive
    integers.

    Samples are int32 and not differentiable.

    Args:
        p: the probability of success of each trial, in (0, 1].

    Raises:
        ValueError: in debug mode, for ``p`` outside (0, 1].
    """

    def __init__(self, p: Variable | ArrayLike) -> None:
        self.p, = utils.as_params('Geometric', p=p)
        utils.check_params('Geometric', p=(self.p, 'positive_probability'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.p.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'p': self.p}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.p)
        p = self.p
        return utils.on_support(
            x, x.array >= 1, 1,
            lambda x: exponential.log(p) + (x - 1) * logarithm_1p.log1p(-p))

    @property
    def entropy(self) -> Variable:
        p = self.p
        return -(_modified_xlogx(1 - p) + _modified_xlogx(p)) / p

    @property
    def mean(self) -> Variable:
        return 1 / self.p

    @property
    def mode(self) -> Variable:
        return self.p ** 0

    @property
    def variance(self) -> Variable:
        return (1 - self.p) / self.p ** 2

    @property
    def support(self) -> str:
        return 'positive integer'

    def sample_n(self, n: int) -> Variable:
        p = self.p.array
        x = utils.random(self.xp, 'geometric', (n,) + p.shape, p.dtype, p)
        return Variable(x, requires_grad=False)


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1: Geometric, dist2: Geometric) -> Variable:
    p1, p2 = dist1.p, dist2.p
    return (exponential.log(p1) - exponential.log(p2)
            + (1 - p1) / p1 * (logarithm_1p.log1p(-p1) - logarithm_1p.log1p(-p2)))
