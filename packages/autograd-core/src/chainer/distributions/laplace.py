"""The Laplace (double exponential) distribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from chainer import backend, distribution
from chainer.distributions import utils
from chainer.function_node import FunctionNode
from chainer.functions._util import retained_inputs
from chainer.functions.math import basic_math, exponential, exponential_m1, logarithm_1p
from chainer.functions.math import sign as sign_mod
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import GradInputs, GradOutputs, NdArray


def _laplace_cdf(x: Any) -> Variable:
    """The cumulative distribution function of the standard Laplace distribution."""
    x = as_variable(x)
    return 0.5 - 0.5 * sign_mod.sign(x) * exponential_m1.expm1(-basic_math.absolute(x))


def _laplace_icdf(x: Any) -> Variable:
    """The inverse of :func:`_laplace_cdf` at probabilities ``x``."""
    centered = as_variable(x) - 0.5
    return -sign_mod.sign(centered) * logarithm_1p.log1p(-2 * basic_math.absolute(centered))



class LaplaceCDF(FunctionNode):
    """The standard Laplace CDF ``0.5 - 0.5 * sign(x) * expm1(-|x|)`` as one function node.

    Its derivative is the density ``0.5 * exp(-|x|)``; ``LaplaceCDF().apply((x,))``.
    """

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        y = 0.5 - 0.5 * xp.sign(x) * xp.expm1(-abs(x))
        return _as_array_of(y, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * (0.5 * exponential.exp(-basic_math.absolute(x))),


class LaplaceICDF(FunctionNode):
    """The inverse of :class:`LaplaceCDF` at probabilities ``p`` in (0, 1), as a function node.

    ``-sign(p - 0.5) * log1p(-2|p - 0.5|)``; its derivative is ``1 / (0.5 - |p - 0.5|)``.
    """

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        p, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(p)
        c = p - 0.5
        return _as_array_of(-xp.sign(c) * xp.log1p(-2 * abs(c)), p.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        p, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy / (0.5 - basic_math.absolute(p - 0.5)),


def _as_array_of(y: Any, dtype: Any) -> Any:
    """``y`` as an array of ``dtype`` (NumPy turns 0-dim results into scalars)."""
    xp = backend.get_array_module(y)
    return xp.asarray(y, dtype=dtype)


class Laplace(distribution.Distribution):
    """Laplace distribution, of density :math:`e^{-|x - \\mu| / b} / (2b)`.

    Samples are reparameterized.

    Args:
        loc: the location :math:`\\mu`.
        scale: the positive scale :math:`b`.

    Raises:
        ValueError: in debug mode, for a scale that is not positive.
    """

    def __init__(self, loc: Variable | ArrayLike, scale: Variable | ArrayLike) -> None:
        self.loc, self.scale = utils.as_params('Laplace', loc=loc, scale=scale)
        utils.check_params('Laplace', scale=(self.scale, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'loc': self.loc, 'scale': self.scale}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.loc)
        return (-exponential.log(2 * self.scale)
                - basic_math.absolute(x - self.loc) / self.scale)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.loc)
        return _laplace_cdf((x - self.loc) / self.scale)

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        return self.loc + self.scale * _laplace_icdf(utils.as_points(x, self.loc))

    @property
    def entropy(self) -> Variable:
        return exponential.log(2 * self.scale) + 1

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def variance(self) -> Variable:
        return 2 * self.scale ** 2

    @property
    def stddev(self) -> Variable:
        return math.sqrt(2) * self.scale

    @property
    def support(self) -> str:
        return 'real'

    def sample_n(self, n: int) -> Variable:
        e = utils.random(self.xp, 'laplace', (n,) + self.batch_shape, self.loc.dtype)
        return self.loc + self.scale * e


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1: Laplace, dist2: Laplace) -> Variable:
    distance = basic_math.absolute(dist1.loc - dist2.loc)
    ratio = dist1.scale / dist2.scale
    return (-exponential.log(ratio) + distance / dist2.scale
            + ratio * exponential.exp(-distance / dist1.scale) - 1)
