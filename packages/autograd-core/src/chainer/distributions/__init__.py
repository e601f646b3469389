"""Probability distributions (``chainer.distributions``).

Each distribution is a :class:`chainer.Distribution` whose parameters may be
variables: log-probabilities, moments, entropies and (where the distribution allows
it) samples are differentiable with respect to them. The KL divergences of the pairs
registered here are available through :func:`chainer.kl_divergence`.
"""

from chainer.distributions import (
    bernoulli,
    beta,
    categorical,
    cauchy,
    chisquare,
    dirichlet,
    exponential,
    gamma,
    geometric,
    gumbel,
    independent,
    laplace,
    log_normal,
    multivariate_normal,
    normal,
    one_hot_categorical,
    pareto,
    poisson,
    uniform,
    utils,
)
from chainer.distributions.bernoulli import Bernoulli
from chainer.distributions.beta import Beta
from chainer.distributions.categorical import Categorical
from chainer.distributions.cauchy import Cauchy
from chainer.distributions.chisquare import Chisquare
from chainer.distributions.dirichlet import Dirichlet
from chainer.distributions.exponential import Exponential
from chainer.distributions.gamma import Gamma
from chainer.distributions.geometric import Geometric
from chainer.distributions.gumbel import Gumbel
from chainer.distributions.independent import Independent
from chainer.distributions.laplace import Laplace
from chainer.distributions.log_normal import LogNormal
from chainer.distributions.multivariate_normal import MultivariateNormal
from chainer.distributions.normal import Normal
from chainer.distributions.one_hot_categorical import OneHotCategorical
from chainer.distributions.pareto import Pareto
from chainer.distributions.poisson import Poisson
from chainer.distributions.uniform import Uniform

__all__ = [
    'Bernoulli', 'Beta', 'Categorical', 'Cauchy', 'Chisquare', 'Dirichlet', 'Exponential',
    'Gamma', 'Geometric', 'Gumbel', 'Independent', 'Laplace', 'LogNormal',
    'MultivariateNormal', 'Normal', 'OneHotCategorical', 'Pareto', 'Poisson', 'Uniform',
]
