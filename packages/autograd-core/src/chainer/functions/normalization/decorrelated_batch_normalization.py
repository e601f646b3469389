"""Decorrelated batch normalization: ZCA whitening of groups of channels over the batch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import grad_by_recompute, retained_inputs
from chainer.functions.array.cast import cast
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose
from chainer.functions.math.matmul import matmul
from chainer.utils import argument, type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable

_TRAIN_REMOVED = 'train argument is not supported anymore. Use chainer.using_config'


def _to_groups(x: Any, groups: int) -> Any:
    """``x`` of shape ``(N, C, ...)`` as ``(groups, C // groups, N * prod(...))``."""
    n, c = x.shape[:2]
    s = int(numpy.prod(x.shape[2:], dtype=numpy.int64))
    return x.reshape(n, groups, c // groups, s).transpose(1, 2, 0, 3).reshape(
        groups, c // groups, n * s)


def _from_groups(y: Any, shape: tuple[int, ...]) -> Any:
    """The inverse of :func:`_to_groups`."""
    groups, cg = y.shape[:2]
    n = shape[0]
    return backend.get_array_module(y).ascontiguousarray(
        y.reshape(groups, cg, n, -1).transpose(2, 0, 1, 3)).reshape(shape)


def _compute_dtype(dtype: Any) -> Any:
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else numpy.dtype(dtype)


def _check_x(x_type: Any, groups: int) -> None:
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2,
                      x_type.shape[1] % groups == 0)


class DecorrelatedBatchNormalization(FunctionNode):
    """ZCA whitening of each group of channels with the statistics of the batch.

    Args:
        groups: the number of groups the channels are divided into.
        eps: added to the diagonal of the covariance.
        mean: the running mean, ``(groups, C // groups)``, updated in place, or None.
        projection: the running projection, ``(groups, C // groups, C // groups)``,
            updated in place, or None.
        decay: the decay rate of the running statistics.
    """

    def __init__(self, groups: int = 16, eps: float = 2e-5,
                 mean: NdArray | None = None, projection: NdArray | None = None,
                 decay: float = 0.9) -> None:
        self.groups = groups
        self.eps = eps
        self.running_mean = mean
        self.running_projection = projection
        self.decay = decay

    @property
    def label(self) -> str:
        return 'DecorrelatedBatchNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _check_x(in_types[0], self.groups)  # unnamed (in_types[0]), as in v7

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        cdt = _compute_dtype(x.dtype)
        xg = _to_groups(x, self.groups).astype(cdt)
        m = xg.shape[2]
        mean = xg.mean(axis=2)
        xg -= mean[:, :, None]
        cov = xp.matmul(xg, xg.transpose(0, 2, 1)) / cdt.type(m)
        cov += cdt.type(self.eps) * xp.eye(xg.shape[1], dtype=cdt)
        lam, v = xp.linalg.eigh(cov)
        s = xp.sqrt(lam)
        projection = xp.matmul(v / s[:, None, :], v.transpose(0, 2, 1))
        self._xc, self._projection, self._v, self._s = xg, projection, v, s
        if self.running_mean is not None:
            self.running_mean *= self.decay
            self.running_mean += ((1 - self.decay) * mean).astype(
                self.running_mean.dtype, copy=False)
        if self.running_projection is not None:
            self.running_projection *= self.decay
            self.running_projection += ((1 - self.decay) * projection).astype(
                self.running_projection.dtype, copy=False)
        y = _from_groups(xp.matmul(projection, xg), x.shape)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        grad = DecorrelatedBatchNormalizationGrad(self)
        return grad.apply(grad_outputs)

    def compute_grad(self, gy: NdArray) -> NdArray:
        """The gradient of ``x`` for the output gradient array ``gy``."""
        xp = backend.get_array_module(gy)
        xc, p, v, s = self._xc, self._projection, self._v, self._s
        gg = _to_groups(gy, self.groups).astype(xc.dtype, copy=False)
        m = xc.dtype.type(xc.shape[2])
        g_p = xp.matmul(gg, xc.transpose(0, 2, 1))
        g_p = (g_p + g_p.transpose(0, 2, 1)) / 2
        # the derivative of the matrix function cov ** -1/2 (Daleckii-Krein), in a
        # form that stays finite for equal eigenvalues
        f = -1 / (s[:, :, None] * s[:, None, :] * (s[:, :, None] + s[:, None, :]))
        vt = v.transpose(0, 2, 1)
        g_cov = xp.matmul(xp.matmul(v, f * xp.matmul(xp.matmul(vt, g_p), v)), vt)
        gxc = xp.matmul(p, gg) + xp.matmul(g_cov, xc) * (2 / m)
        gxc -= gxc.mean(axis=2, keepdims=True)
        return _from_groups(gxc, gy.shape).astype(gy.dtype, copy=False)


class DecorrelatedBatchNormalizationGrad(FunctionNode):
    """The gradient of :class:`DecorrelatedBatchNormalization` (not differentiable again)."""

    def __init__(self, func: DecorrelatedBatchNormalization) -> None:
        self.func = func

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return self.func.compute_grad(inputs[0]),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        raise NotImplementedError(
            'double backprop of decorrelated_batch_normalization is not supported')


class FixedDecorrelatedBatchNormalization(FunctionNode):
    """``projection @ (x - mean)`` for each group of channels, with given statistics.

    Args:
        groups: the number of groups the channels are divided into.
    """

    def __init__(self, groups: int) -> None:
        self.groups = groups

    @property
    def label(self) -> str:
        return 'FixedDecorrelatedBatchNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 'mean', 'projection'))
        x_type, mean_type, proj_type = in_types
        _check_x(x_type, self.groups)
        type_check.expect(
            mean_type.dtype.kind == 'f',
            proj_type.dtype.kind == 'f',
            mean_type.ndim == 2,
            mean_type.shape[0] == self.groups,
            mean_type.shape[1] * self.groups == x_type.shape[1],
            proj_type.ndim == 3,
            proj_type.shape[0] == self.groups,
            proj_type.shape[1] == mean_type.shape[1],
            proj_type.shape[2] == mean_type.shape[1],
        )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        x, mean, projection = inputs
        xp = backend.get_array_module(x)
        cdt = _compute_dtype(x.dtype)
        xg = _to_groups(x, self.groups).astype(cdt)
        xg -= mean.astype(cdt)[:, :, None]
        y = xp.matmul(projection.astype(cdt), xg)
        return _from_groups(y, x.shape).astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x, mean, projection = (v.array for v in retained_inputs(self))
        xp = backend.get_array_module(x)
        cdt = _compute_dtype(x.dtype)
        xc = _to_groups(x, self.groups).astype(cdt)
        xc -= mean.astype(cdt)[:, :, None]
        gg = _to_groups(gy.array, self.groups).astype(cdt, copy=False)
        gxc = xp.matmul(projection.astype(cdt).transpose(0, 2, 1), gg)
        gx = _from_groups(gxc, x.shape).astype(x.dtype, copy=False)
        gmean = (-gxc.sum(axis=2)).astype(mean.dtype, copy=False)
        gproj = xp.matmul(gg, xc.transpose(0, 2, 1)).astype(projection.dtype, copy=False)
        return gx, gmean, gproj

    def _composed(self, x: Any, mean: Any, projection: Any) -> tuple[Any]:

        n, c = x.shape[:2]
        g = self.groups
        if mean.dtype != x.dtype:
            mean = cast(mean, x.dtype)
        if projection.dtype != x.dtype:
            projection = cast(projection, x.dtype)
        x4 = reshape(x, (n, g, c // g, -1))
        xc = x4 - reshape(mean, (1, g, c // g, 1))
        xg = reshape(transpose(xc, (1, 2, 0, 3)), (g, c // g, -1))
        y = reshape(matmul(projection, xg), (g, c // g, n, -1))
        return reshape(transpose(y, (2, 0, 1, 3)), x.shape),


@guarded
def decorrelated_batch_normalization(x: VariableOrArray, **kwargs: Any) -> Variable:
    """Decorrelated batch normalization: ZCA whitening over the batch.

    The channels (axis 1) are divided into ``groups`` groups. In each, the
    channels are centered with their mean over the batch and the other axes,
    and multiplied by ``projection = cov ** -1/2``, the inverse square root of
    their covariance (plus ``eps`` on the diagonal), which makes them
    uncorrelated with unit variance. See Huang et al., "Decorrelated Batch
    Normalization" (2018).

    Args:
        x: the input variable, of shape ``(N, C, ...)``.
        groups: (keyword, 16) the number of groups; it must divide ``C``.
        eps: (keyword, 2e-5) added to the diagonal of the covariance.
        running_mean: (keyword) an array of shape ``(groups, C // groups)``
            updated in place with the decay, or None.
        running_projection: (keyword) an array of shape
            ``(groups, C // groups, C // groups)`` updated likewise, or None.
        decay: (keyword, 0.9) the decay rate of the running statistics.

    Returns:
        The output variable, of the shape and dtype of ``x``. It is
        differentiable once (not twice).

    Raises:
        chainer.utils.type_check.InvalidType: when ``groups`` does not divide ``C``.
        ValueError: for the removed ``train`` argument.
    """
    groups, eps, running_mean, running_projection, decay = argument.parse_kwargs(
        kwargs, ('groups', 16), ('eps', 2e-5), ('running_mean', None),
        ('running_projection', None), ('decay', 0.9), train=_TRAIN_REMOVED)
    return DecorrelatedBatchNormalization(groups, eps, running_mean, running_projection,
                                          decay).apply((x,))[0]


@guarded
def fixed_decorrelated_batch_normalization(x: VariableOrArray, mean: VariableOrArray,
                                           projection: VariableOrArray,
                                           groups: int = 16) -> Variable:
    """Decorrelated batch normalization with fixed statistics (the inference form).

    Args:
        x: the input variable, of shape ``(N, C, ...)``.
        mean: the mean, of shape ``(groups, C // groups)``.
        projection: the whitening matrices, of shape ``(groups, C // groups, C // groups)``.
        groups: the number of groups.

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes do not fit.
    """
    return FixedDecorrelatedBatchNormalization(groups).apply((x, mean, projection))[0]


class FixedDecorrelatedBatchNormalizationGrad(BackwardNode):
    """The gradients of :class:`FixedDecorrelatedBatchNormalization`:
    ``(x, mean, projection, gy)`` to ``(gx, gmean, gprojection)``.

    Args:
        groups: the number of groups the channels are divided into.
    """

    n_in = 3

    def __init__(self, groups: int) -> None:
        self.groups = groups

    def primal(self) -> FunctionNode:
        return FixedDecorrelatedBatchNormalization(self.groups)
