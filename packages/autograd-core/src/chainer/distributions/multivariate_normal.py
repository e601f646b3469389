"""The multivariate normal distribution, parameterized by a Cholesky factor."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, distribution
from chainer.distributions import utils
from chainer.function_node import FunctionNode
from chainer.functions._util import retained_outputs
from chainer.functions.array import broadcast, diagonal, expand_dims, reshape, squeeze
from chainer.functions.math import basic_math, exponential, inv, matmul
from chainer.functions.math import sum as sum_mod
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import GradInputs, GradOutputs, NdArray

_LOG_2PI = math.log(2 * math.pi)
# v7's names, per dimension: entropy = d * ENTROPYC + log|det scale_tril|,
# log p = d * LOGPROBC - log|det scale_tril| - |z|**2 / 2.
ENTROPYC = 0.5 * (1 + _LOG_2PI)
LOGPROBC = -0.5 * _LOG_2PI


def _triangular_inv(x: Any, lower: bool = True) -> Variable:
    """The inverse of a triangular matrix (or of each of a batch, on the last two axes).

    Only the lower (``lower=True``) or upper triangle of ``x`` is read; the result is
    differentiable twice.

    Args:
        x: float variable or array of shape ``(..., d, d)``.
        lower: whether ``x`` is lower triangular.

    Returns:
        A variable of the shape of ``x``.

    Raises:
        ValueError: when ``x`` is not a (batch of) square matrices, or is singular.
    """
    x = as_variable(x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f'_triangular_inv: x must be a (batch of) square matrices, not of '
                         f'shape {x.shape}')
    xp = backend.get_array_module(x)
    d = x.shape[-1]
    ones = xp.ones((d, d), dtype=x.dtype)
    mask = xp.tril(ones) if lower else xp.triu(ones)
    x = x * mask
    if x.ndim == 2:
        return inv.inv(x)
    return reshape.reshape(inv.batch_inv(reshape.reshape(x, (-1, d, d))), x.shape)



class TriangularInv(FunctionNode):
    """The inverse of a square triangular matrix as a function node (differentiable twice).

    Only the lower (``lower=True``) or upper triangle of the input is read, and the
    gradient is masked to that triangle. Chainer v7 solved with SciPy; this inverts
    with the array module's ``linalg.inv`` and needs no SciPy.

    Args:
        lower: whether the matrix is lower triangular.
    """

    def __init__(self, lower: bool = True) -> None:
        self._lower = lower

    def _mask(self, xp: Any, d: int, dtype: Any) -> Any:
        ones = xp.ones((d, d), dtype=dtype)
        return xp.tril(ones) if self._lower else xp.triu(ones)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        if x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f'TriangularInv: x must be a square matrix, not of shape {x.shape}')
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        y = xp.linalg.inv(x * self._mask(xp, x.shape[0], x.dtype))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        xp = backend.get_array_module(y)
        # d(inv x) = -y dx y, so gx = -y^T gy y^T, restricted to the triangle read
        gx = -matmul.matmul(matmul.matmul(y, gy, transa=True), y, transb=True)
        return gx * self._mask(xp, y.shape[0], y.dtype),


def _matvec(m: Variable, v: Any) -> Variable:
    """``m @ v`` over the last axis of ``v``, broadcasting the leading axes."""
    return squeeze.squeeze(matmul.matmul(m, expand_dims.expand_dims(v, -1)), -1)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution with mean ``loc`` and covariance
    :math:`LL^\\top`, where :math:`L` is the lower triangular ``scale_tril``.

    Events have the shape ``(d,)``. Samples are reparameterized
    (``loc + L @ eps``).

    Args:
        loc: the mean, of shape ``batch_shape + (d,)``.
        scale_tril: keyword, required: the Cholesky factor of the covariance, of shape
            ``batch_shape + (d, d)`` (only its lower triangle is read).

    Raises:
        ValueError: without ``scale_tril``, for shapes that do not match; in debug mode,
            for a diagonal of ``scale_tril`` that is not positive.
        TypeError: for another keyword argument.
    """

    def __init__(self, loc: Variable | ArrayLike, **kwargs: Any) -> None:
        scale_tril = kwargs.pop('scale_tril', None)
        if kwargs:
            raise TypeError(
                f'MultivariateNormal got unexpected keyword arguments: {sorted(kwargs)}')
        if scale_tril is None:
            raise ValueError('MultivariateNormal: scale_tril (the Cholesky factor of the '
                             'covariance) is required')
        loc, scale_tril = utils.as_params('MultivariateNormal', broadcast=False, loc=loc,
                                          scale_tril=scale_tril)
        if (loc.ndim < 1 or scale_tril.ndim < 2 or scale_tril.shape[-1] != scale_tril.shape[-2]
                or loc.shape[-1] != scale_tril.shape[-1]):
            raise ValueError(f'MultivariateNormal: loc must be of shape batch_shape + (d,) '
                             f'and scale_tril of shape batch_shape + (d, d), not {loc.shape} '
                             f'and {scale_tril.shape}')
        if loc.shape[:-1] != scale_tril.shape[:-2]:
            try:
                batch = numpy.broadcast_shapes(loc.shape[:-1], scale_tril.shape[:-2])
            except ValueError:
                raise ValueError(f'MultivariateNormal: the batch shapes of loc {loc.shape} '
                                 f'and scale_tril {scale_tril.shape} do not broadcast') from None
            d = loc.shape[-1]
            loc = broadcast.broadcast_to(loc, batch + (d,))
            scale_tril = broadcast.broadcast_to(scale_tril, batch + (d, d))
        self.loc, self.scale_tril = loc, scale_tril
        if chainer.config.debug:
            utils.check_params('MultivariateNormal',
                               scale_tril_diagonal=(self._diagonal.array, 'positive'))

    @property
    def _diagonal(self) -> Variable:
        return diagonal.diagonal(self.scale_tril, axis1=-2, axis2=-1)

    @property
    def d(self) -> int:
        """The dimension of the events."""
        return self.loc.shape[-1]

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape[:-1]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.loc.shape[-1:]

    @property
    def params(self) -> dict[str, Variable]:
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    def _log_det_scale(self) -> Variable:
        return sum_mod.sum(exponential.log(basic_math.absolute(self._diagonal)), axis=-1)

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.loc)
        z = _matvec(_triangular_inv(self.scale_tril), x - self.loc)
        return (-0.5 * sum_mod.sum(z ** 2, axis=-1) - self._log_det_scale()
                - 0.5 * self.d * _LOG_2PI)

    @property
    def entropy(self) -> Variable:
        return self._log_det_scale() + 0.5 * self.d * (1 + _LOG_2PI)

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def covariance(self) -> Variable:
        return matmul.matmul(self.scale_tril, self.scale_tril, transb=True)

    @property
    def variance(self) -> Variable:
        return sum_mod.sum(self.scale_tril ** 2, axis=-1)

    @property
    def support(self) -> str:
        return 'real'

    def sample_n(self, n: int) -> Variable:
        eps = utils.random(self.xp, 'standard_normal', (n,) + self.loc.shape, self.loc.dtype)
        return self.loc + _matvec(self.scale_tril, eps)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(dist1: MultivariateNormal, dist2: MultivariateNormal) -> Variable:
    inv2 = _triangular_inv(dist2.scale_tril)
    trace = sum_mod.sum(matmul.matmul(inv2, dist1.scale_tril) ** 2, axis=(-2, -1))
    z = _matvec(inv2, dist2.loc - dist1.loc)
    return (dist2._log_det_scale() - dist1._log_det_scale()
            + 0.5 * (trace + sum_mod.sum(z ** 2, axis=-1) - dist1.d))
