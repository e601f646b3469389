"""SpectralNormalization: divides a link's weight by its largest singular value.

The helpers of v7 (:func:`l2normalize`, :func:`update_approximate_vectors`,
:func:`calculate_max_singular_value`) give the power iteration and ``u^T W v`` on
their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, functions
from chainer.link_hooks._weight_hook import WeightHook
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.types import NdArray, Xp


def _normalize(v: Any, eps: float) -> Any:
    xp = backend.get_array_module(v)
    return v / (xp.sqrt(xp.sum(v * v)) + eps)



def l2normalize(xp: Xp, v: NdArray, eps: float) -> NdArray:
    """``v / (||v||_2 + eps)``: the array ``v`` scaled to unit Euclidean norm.

    Args:
        xp: the array module of ``v`` (numpy or cupy).
        v: an array (all its elements form the vector).
        eps: added to the norm, against a division by zero.
    """
    return v / (xp.linalg.norm(v) + eps)


def update_approximate_vectors(weight_matrix: NdArray, u: NdArray, n_power_iteration: int,
                               eps: float) -> tuple[Any, Any]:
    """Power iteration for the first singular vectors of a matrix.

    Args:
        weight_matrix: the ``(m, n)`` matrix (a Variable or an array; its data is read).
        u: the current approximation of the first left singular vector, ``(m,)``.
        n_power_iteration: the number of iterations (at least 1).
        eps: see :func:`l2normalize`.

    Returns:
        ``(u, v)``: the new left ``(m,)`` and right ``(n,)`` singular vectors.

    Raises:
        ValueError: for fewer than one iteration.
    """
    if n_power_iteration < 1:
        raise ValueError(f'n_power_iteration must be at least 1, not {n_power_iteration}')
    W = getattr(weight_matrix, 'array', weight_matrix)
    xp = backend.get_array_module(W)
    for _ in range(n_power_iteration):
        v = l2normalize(xp, xp.dot(u, W), eps)
        u = l2normalize(xp, xp.dot(W, v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix: chainer.Variable, u: NdArray,
                                  v: NdArray) -> chainer.Variable:
    """``u^T W v``: the largest singular value of ``W`` for its singular vectors ``u``, ``v``.

    Differentiable with respect to ``weight_matrix`` (``u`` and ``v`` are constants).

    Args:
        weight_matrix: the ``(m, n)`` matrix, a Variable or an array.
        u: the ``(m,)`` left singular vector (an array).
        v: the ``(n,)`` right singular vector (an array).

    Returns:
        A 0-dim Variable.
    """
    Wv = functions.linear(v.reshape(1, -1), weight_matrix)  # (1, m): (W v)^T
    return functions.sum(Wv * u.reshape(1, -1))


def _gamma(link: Link) -> Parameter:
    """The ``gamma`` that :meth:`SpectralNormalization.added` gave ``link``.

    Raises:
        RuntimeError: when the link has no such parameter (it was deleted).
    """
    gamma = link.__dict__.get('gamma')
    if not isinstance(gamma, Parameter):
        raise RuntimeError(f'SpectralNormalization(use_gamma=True): {type(link).__name__} '
                           'has no parameter gamma')
    return gamma


class SpectralNormalization(WeightHook):
    """Spectral normalization (Miyato et al., 2018) as a link hook.

    While the link runs, its weight ``W`` is replaced by ``W / sigma(W)``, where
    ``sigma`` is the largest singular value of ``W`` seen as a matrix with one
    row per output unit (axis 1 of a deconvolution's weight, else axis 0),
    estimated by power iteration. The left singular vector estimate is kept on
    the link as the persistent value ``<weight_name>_u`` (saved with the model):
    every call refines the estimate, but only training calls store it (when
    recomputing, the vectors of the original call are reused). With
    ``use_gamma`` the link gets a parameter ``gamma`` (initialized to
    ``sigma(W)``) multiplying the normalized weight.

    Args:
        n_power_iteration: power iterations per training call.
        eps: added to norms to avoid a division by zero.
        use_gamma: whether to learn a scale ``gamma``.
        factor: if given, the weight is multiplied by ``factor`` after normalization.
        weight_name: the name of the weight parameter.
        name: the hook's registration name.

    Attributes:
        vector_name: the name of the persistent singular vector ``u`` on the link.
        v: the last right singular vector estimate.
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration: int = 1, eps: float = 1e-6,
                 use_gamma: bool = False, factor: float | None = None,
                 weight_name: str = 'W', name: str | None = None) -> None:
        if n_power_iteration < 1:
            raise ValueError(f'n_power_iteration must be positive, not {n_power_iteration}')
        super().__init__(weight_name, name)
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.vector_name = weight_name + '_u'
        self.axis = 0
        self.v: Any = None

    def added(self, link: Link | None) -> None:
        """Register the hook on ``link`` (see :class:`WeightHook`).

        Raises:
            ValueError: also when the weight has no output unit.
        """
        from chainer.links.connection.deconvolution_2d import Deconvolution2D
        from chainer.links.connection.deconvolution_nd import DeconvolutionND

        if isinstance(link, (Deconvolution2D, DeconvolutionND)):
            self.axis = 1
        super().added(link)

    def prepare(self, link: Link) -> None:
        """Create ``u`` (random, unit norm) and ``gamma`` on the link."""
        W = getattr(link, self.weight_name).array
        if W.shape[self.axis] == 0:
            raise ValueError(f'SpectralNormalization needs a weight with at least one output '
                             f'unit, not of shape {W.shape}')
        xp = backend.get_array_module(W)
        if not hasattr(link, self.vector_name):
            u = _normalize(xp.asarray(numpy.random.normal(size=(W.shape[self.axis],)),
                                      dtype=W.dtype), self.eps)
            link.add_persistent(self.vector_name, u)
        if self.use_gamma and not hasattr(link, 'gamma'):
            matrix = self._matrix_array(W)
            sigma = xp.linalg.svd(matrix.astype(numpy.float64), compute_uv=False)[0]
            with link.init_scope():
                link.gamma = Parameter(xp.asarray(sigma, dtype=W.dtype))

    def deleted(self, link: Link | None) -> None:
        """Remove ``u`` (and ``gamma``) from the link."""
        if link is not None:
            if hasattr(link, self.vector_name):
                delattr(link, self.vector_name)
            if self.use_gamma and hasattr(link, 'gamma'):
                delattr(link, 'gamma')
        self.v = None
        super().deleted(link)

    def _matrix_array(self, W: Any) -> Any:
        if self.axis != 0:
            W = W.swapaxes(0, self.axis)
        return W.reshape(W.shape[0], -1)

    def transform(self, link: Link, weight: chainer.Variable) -> chainer.Variable:
        """The normalized weight ``W / sigma`` (times ``gamma`` and ``factor``)."""
        u = getattr(link, self.vector_name)
        matrix = self._matrix_array(weight.array)
        config = chainer.config
        if config.in_recomputing and self.v is not None:
            v = self.v  # recompute exactly what the original forward computed
        else:
            for _ in range(self.n_power_iteration):
                v = _normalize(u @ matrix, self.eps)
                u = _normalize(matrix @ v, self.eps)
            self.v = v
            if config.train and not config.in_recomputing:
                getattr(link, self.vector_name)[...] = u
        W = weight
        if self.axis != 0:
            W = functions.swapaxes(W, 0, self.axis)
        W_matrix = functions.reshape(W, (W.shape[0], -1))
        # sigma = u^T W v, differentiable with respect to W only.
        sigma = functions.sum(functions.linear(v[None], W_matrix)[0] * u)
        if self.factor is not None:
            sigma = sigma / self.factor
        normalized = weight / functions.broadcast_to(sigma, weight.shape)
        if self.use_gamma:
            normalized = functions.broadcast_to(_gamma(link), weight.shape) * normalized
        return normalized
