"""Batch normalization: with the statistics of the batch, or with fixed ones.

The arrays are viewed as ``(A, C, B)``, where ``C`` runs over the elements of
``gamma`` and ``A``, ``B`` over the aggregated axes before and after them, so
that every statistic is a reduction over axes 0 and 2 done with BLAS (a
matrix-vector product for the sums, ``einsum`` for the dot products) and the
normalization a couple of broadcast passes. On CuPy arrays with the channels on axis 1,
the forward and backward passes may run as cuDNN graphs instead
(:mod:`chainer._cudnn_bn`, with the ``cudnn`` extra).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import _cudnn_bn, backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import channel_sum, grad_by_recompute, retained_inputs
from chainer.functions.array.cast import cast
from chainer.functions.array.reshape import reshape
from chainer.functions.math.average import mean as f_mean
from chainer.functions.math.sqrt import rsqrt
from chainer.utils import argument, type_check
from chainer.utils.numeric_args import as_axis

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray, Xp
    from chainer.variable import Variable

_TRAIN_REMOVED = 'train argument is not supported anymore. Use chainer.using_config'


def compute_axes(x_ndim: int, gamma_ndim: int,
                 axis: int | tuple[int, ...] | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The aggregated axes and the parameter ("key") axes of an input.

    Args:
        x_ndim: the number of axes of the input.
        gamma_ndim: the number of axes of the parameters.
        axis: None (axis 0 and the axes after the parameters), an int or a tuple.

    Returns:
        ``(aggregated axes, key axes)``, both sorted.

    Raises:
        ValueError: for an axis out of range or repeated.
    """
    if axis is None:
        aggr = (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    else:
        axis = as_axis(axis)  # NumPy integers and 0-d arrays as v7 takes them
        if isinstance(axis, int):
            axis = (axis,)
        aggr_list = []
        for a in axis:
            if not -x_ndim <= a < x_ndim:
                raise ValueError(f'axis {a} is out of bounds for an input of {x_ndim} axes')
            aggr_list.append(a % x_ndim)
        if len(set(aggr_list)) != len(aggr_list):
            raise ValueError(f'axis {axis} has repeated axes')
        aggr = tuple(sorted(aggr_list))
    key = tuple(i for i in range(x_ndim) if i not in aggr)
    return aggr, key


class Layout:
    """How an input of a given shape is viewed as ``(A, C, B)``."""

    def __init__(self, shape: tuple[int, ...], key: tuple[int, ...]) -> None:
        self.shape = shape
        self.perm: tuple[int, ...] | None = None
        def prod(axes: Any) -> int:
            return int(numpy.prod([shape[i] for i in axes], dtype=numpy.int64))

        c = prod(key)
        if not key or key == tuple(range(key[0], key[-1] + 1)):
            k0 = key[0] if key else len(shape)
            a, b = prod(range(k0)), prod(range(k0 + len(key), len(shape)))
        else:
            # the key axes are not together: move them last (a copy, rare)
            aggr = tuple(i for i in range(len(shape)) if i not in key)
            self.perm = aggr + key
            a, b = prod(aggr), 1
        self.view = (a, c, b)
        self.m = a * b

    def to3(self, x: NdArray) -> NdArray:
        """``x`` (of the layout's shape) viewed as ``(A, C, B)``."""
        if self.perm is not None:
            x = x.transpose(self.perm)
        return x.reshape(self.view)

    def from3(self, y: NdArray) -> NdArray:
        """The inverse of :meth:`to3`."""
        if self.perm is None:
            return y.reshape(self.shape)
        y = y.reshape([self.shape[i] for i in self.perm])
        inverse = tuple(int(i) for i in numpy.argsort(self.perm))
        return backend.get_array_module(y).ascontiguousarray(y.transpose(inverse))


def compute_dtype(dtype: DTypeSpec) -> numpy.dtype:
    """The dtype the statistics are computed in (float16 is computed in float32)."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else numpy.dtype(dtype)


def channel_dot(x3: NdArray, y3: NdArray, xp: Xp) -> NdArray:
    """The per-channel dot product of two ``(A, C, B)`` arrays."""
    return xp.einsum('acb,acb->c', x3, y3)


def _expect_params(in_types: Any, axis: Any, n_inputs: int) -> None:
    """The type check of (fixed) batch normalization, in v7's order and words (the
    inputs unnamed): the dtypes, each parameter's shape against ``gamma``'s, the number
    of aggregated axes, ``gamma``'s axes against ``x``'s key axes; then what the project
    requires beyond v7 (``gamma`` of at least one axis, fewer than ``x``'s)."""
    type_check.expect(in_types.size() == n_inputs)
    x_type, gamma_type, *others = in_types
    type_check.expect(x_type.dtype.kind == 'f', gamma_type.dtype.kind == 'f')
    if len(others) == 1:  # BatchNormalization: gamma on the left, as v7
        beta_type, = others
        type_check.expect(gamma_type.dtype == beta_type.dtype,
                          gamma_type.shape == beta_type.shape)
    else:
        type_check.expect(*[p.dtype == gamma_type.dtype for p in others],
                          *[p.shape == gamma_type.shape for p in others])
    aggr, key = compute_axes(type_check.eval(x_type.ndim), type_check.eval(gamma_type.ndim),
                             axis)
    type_check.expect(x_type.ndim >= len(aggr))
    type_check.expect(gamma_type.ndim == len(key))
    for j, k in enumerate(key):
        type_check.expect(x_type.shape[k] == gamma_type.shape[j])
    type_check.expect(gamma_type.ndim >= 1, x_type.ndim > gamma_type.ndim)


class BatchNormalization(FunctionNode):
    """Normalization of ``x`` with the statistics of the batch, then ``gamma * x + beta``.

    Args:
        eps: added to the variance.
        mean: the running mean (an array updated in place) or None.
        var: the running variance (an array updated in place) or None.
        decay: the decay rate of the running statistics.
        axis: the aggregated axes (None for axis 0 and those after ``gamma``'s).

    After :meth:`forward`, ``mean`` and ``inv_std`` hold the statistics of the batch.
    """

    mean: Any = None
    inv_std: Any = None

    def __init__(self, eps: float = 2e-5, mean: NdArray | None = None,
                 var: NdArray | None = None, decay: float = 0.9,
                 axis: int | tuple[int, ...] | None = None, **kwargs: Any) -> None:
        kwargs.pop('impl_selector', None)
        argument.assert_kwargs_empty(kwargs)
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.axis = axis

    @property
    def label(self) -> str:
        return 'BatchNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _expect_params(in_types, self.axis, 3)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        self._aggr, key = compute_axes(x.ndim, gamma.ndim, self.axis)
        layout = self._layout = Layout(x.shape, key)
        cdt = compute_dtype(x.dtype)
        m = layout.m
        if _cudnn_bn.usable(x, gamma, self._aggr):
            out = _cudnn_bn.forward(x, gamma, beta, self.eps)
            if out is not None:
                y, mean, inv_std = out
                self.mean = mean.reshape(gamma.shape)
                self.inv_std = inv_std.reshape(gamma.shape)
                var = None
                if self.running_var is not None:
                    var = _cudnn_bn.batch_variance(self.inv_std, self.eps)
                self._update_running(var, m)
                return y,
        x3 = layout.to3(x).astype(cdt, copy=False)
        if m == 0:
            self.mean = xp.zeros(gamma.shape, cdt)
            self.inv_std = xp.zeros(gamma.shape, cdt)
            return xp.empty(x.shape, x.dtype),
        mean = channel_sum(x3, xp) / cdt.type(m)
        y3 = x3 - mean[:, None]
        var = channel_dot(y3, y3, xp) / cdt.type(m)
        inv_std = 1 / xp.sqrt(var + cdt.type(self.eps))
        y3 *= (gamma.reshape(-1).astype(cdt) * inv_std)[:, None]
        y3 += beta.reshape(-1).astype(cdt)[:, None]
        self.mean = mean.reshape(gamma.shape)
        self.inv_std = inv_std.reshape(gamma.shape)
        self._update_running(var.reshape(gamma.shape), m)
        return layout.from3(y3).astype(x.dtype, copy=False),

    def _update_running(self, var: Any, m: int) -> None:
        decay = self.decay
        if self.running_mean is not None:
            rm = self.running_mean
            rm *= decay
            rm += ((1 - decay) * self.mean).astype(rm.dtype, copy=False)
        if self.running_var is not None:
            rv = self.running_var
            rv *= decay
            adjust = m / max(m - 1., 1.)
            rv += ((1 - decay) * adjust * var).astype(rv.dtype, copy=False)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x, gamma, _ = (v.array for v in retained_inputs(self))
        g, = grad_outputs
        assert g is not None
        gy = g.array
        xp = backend.get_array_module(x)
        layout = self._layout
        m = layout.m
        cdt = compute_dtype(x.dtype)
        if m == 0:
            return xp.zeros_like(x), xp.zeros_like(gamma), xp.zeros_like(gamma)
        if _cudnn_bn.usable(x, gamma, self._aggr):
            out = _cudnn_bn.backward(x, gamma, gy, self.mean.reshape(-1),
                                     self.inv_std.reshape(-1))
            if out is not None:
                gx, ggamma, gbeta = out
                return (gx, ggamma.astype(gamma.dtype, copy=False),
                        gbeta.astype(gamma.dtype, copy=False))
        x3 = layout.to3(x).astype(cdt, copy=False)
        g3 = layout.to3(gy).astype(cdt, copy=False)
        mean = self.mean.reshape(-1)
        inv_std = self.inv_std.reshape(-1)
        gbeta = channel_sum(g3, xp)
        ggamma = (channel_dot(g3, x3, xp) - mean * gbeta) * inv_std
        # gx = a * gy + b * x + c, the closed form of the gradient
        a = gamma.reshape(-1).astype(cdt) * inv_std
        b = a * inv_std * ggamma / -cdt.type(m)
        c = a * gbeta / -cdt.type(m) - b * mean
        gx = g3 * a[:, None]
        gx += x3 * b[:, None]
        gx += c[:, None]
        gx = layout.from3(gx).astype(x.dtype, copy=False)
        return (gx, ggamma.reshape(gamma.shape).astype(gamma.dtype, copy=False),
                gbeta.reshape(gamma.shape).astype(gamma.dtype, copy=False))

    def _composed(self, x: Any, gamma: Any, beta: Any) -> tuple[Any]:

        aggr = self._aggr
        mean = f_mean(x, axis=aggr, keepdims=True)
        xc = x - mean
        inv_std = rsqrt(f_mean(xc * xc, axis=aggr, keepdims=True) + x.dtype.type(self.eps))
        return _affine(xc * inv_std, gamma, beta, aggr),


def _as_x_dtype(p: Any, x: Any, shape: tuple[int, ...]) -> Any:

    if p.dtype != x.dtype:
        p = cast(p, x.dtype)
    return reshape(p, shape)


def _affine(x_hat: Any, gamma: Any, beta: Any, aggr: tuple[int, ...]) -> Any:
    """``gamma * x_hat + beta`` with the parameters broadcast over ``aggr`` (differentiable)."""
    shape = tuple(1 if i in aggr else s for i, s in enumerate(x_hat.shape))
    return x_hat * _as_x_dtype(gamma, x_hat, shape) + _as_x_dtype(beta, x_hat, shape)


class FixedBatchNormalization(FunctionNode):
    """``gamma * (x - mean) / sqrt(var + eps) + beta`` with given statistics.

    Args:
        eps: added to the variance.
        axis: the aggregated axes (None for axis 0 and those after ``gamma``'s).
    """

    def __init__(self, eps: float = 2e-5, axis: int | tuple[int, ...] | None = None) -> None:
        self.eps = eps
        self.axis = axis

    @property
    def label(self) -> str:
        return 'FixedBatchNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _expect_params(in_types, self.axis, 5)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2, 3, 4))
        x, gamma, beta, mean, var = inputs
        xp = backend.get_array_module(x)
        self._aggr, key = compute_axes(x.ndim, gamma.ndim, self.axis)
        layout = self._layout = Layout(x.shape, key)
        cdt = compute_dtype(x.dtype)
        inv_std = 1 / xp.sqrt(var.reshape(-1).astype(cdt) + cdt.type(self.eps))
        if _cudnn_bn.usable(x, gamma, self._aggr):
            y = _cudnn_bn.inference(x, gamma, beta, mean, inv_std)
            if y is not None:
                return y,
        scale = gamma.reshape(-1).astype(cdt) * inv_std
        shift = beta.reshape(-1).astype(cdt) - mean.reshape(-1).astype(cdt) * scale
        y3 = layout.to3(x) * scale[:, None]
        y3 += shift[:, None]
        return layout.from3(y3).astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x, gamma, _, mean, var = (v.array for v in retained_inputs(self))
        g, = grad_outputs
        assert g is not None
        gy = g.array
        xp = backend.get_array_module(x)
        layout = self._layout
        cdt = compute_dtype(x.dtype)
        g3 = layout.to3(gy).astype(cdt, copy=False)
        gamma1 = gamma.reshape(-1).astype(cdt)
        mean1 = mean.reshape(-1).astype(cdt)
        inv_std = 1 / xp.sqrt(var.reshape(-1).astype(cdt) + cdt.type(self.eps))
        scale = gamma1 * inv_std
        gbeta = channel_sum(g3, xp)
        ggamma = (channel_dot(g3, layout.to3(x).astype(cdt, copy=False), xp)
                  - mean1 * gbeta) * inv_std
        gx = layout.from3(g3 * scale[:, None]).astype(x.dtype, copy=False)
        gmean = -scale * gbeta
        gvar = ggamma * gamma1 * inv_std * inv_std / cdt.type(-2)
        shape = gamma.shape
        return (gx, ggamma.reshape(shape).astype(gamma.dtype, copy=False),
                gbeta.reshape(shape).astype(gamma.dtype, copy=False),
                gmean.reshape(shape).astype(mean.dtype, copy=False),
                gvar.reshape(shape).astype(var.dtype, copy=False))

    def _composed(self, x: Any, gamma: Any, beta: Any, mean: Any, var: Any) -> tuple[Any]:

        aggr = self._aggr
        shape = tuple(1 if i in aggr else s for i, s in enumerate(x.shape))
        mean = _as_x_dtype(mean, x, shape)
        inv_std = rsqrt(_as_x_dtype(var, x, shape) + x.dtype.type(self.eps))
        return _affine((x - mean) * inv_std, gamma, beta, aggr),


def _warn_small_batch(x: Any, gamma: Any) -> None:
    size = gamma.size
    if size and x.size // size == 1:
        warnings.warn(
            'A batch with no more than one sample has been given to F.batch_normalization: '
            'it always outputs zeros (beta) for such a batch. This can come from a wrong '
            'configuration (such as evaluating with chainer.config.train = True), or from '
            'the last batch of a non-repeating iterator.', UserWarning)


@guarded
def batch_normalization(x: VariableOrArray, gamma: VariableOrArray, beta: VariableOrArray,
                        **kwargs: Any) -> Variable:
    """Batch normalization: normalize with the statistics of the batch, then scale and shift.

    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``, where ``mean`` and
    ``var`` are the mean and the (biased) variance of ``x`` over the aggregated
    axes: by default axis 0 and the axes after those of ``gamma``, so that
    ``gamma.shape == x.shape[1:1 + gamma.ndim]``.

    With the ``cudnn`` extra, CuPy inputs of 2 to 5 axes in float16 or float32 with a
    one-axis ``gamma`` and the default ``axis`` run through cuDNN as
    ``chainer.config.use_cudnn`` allows (under ``'auto'``, inputs of 2^24 elements or
    more); ``cudnn_fast_batch_normalization`` is accepted and has no effect.

    Args:
        x: the input variable.
        gamma: the scaling parameter, of the shape of ``x`` without the aggregated axes.
        beta: the shifting parameter, of the shape of ``gamma``.
        eps: (keyword, 2e-5) added to the variance.
        running_mean: (keyword) an array updated in place to
            ``decay * running_mean + (1 - decay) * mean``, or None.
        running_var: (keyword) an array updated in place likewise with the
            unbiased variance, or None.
        decay: (keyword, 0.9) the decay rate of the running statistics.
        axis: (keyword) the aggregated axes, an int or a tuple of ints (None for
            the default above).

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``gamma`` or ``beta`` do not
            fit ``x``.
        ValueError: for the removed ``train`` argument or a bad ``axis``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[1., 10.], [3., 30.]], np.float32)
        >>> gamma = np.ones(2, np.float32)
        >>> beta = np.zeros(2, np.float32)
        >>> y = F.batch_normalization(x, gamma, beta, eps=1e-5)
        >>> print(y.array.round(3))
        [[-1. -1.]
         [ 1.  1.]]
    """
    eps, running_mean, running_var, decay, axis = argument.parse_kwargs(
        kwargs, ('eps', 2e-5), ('running_mean', None), ('running_var', None),
        ('decay', 0.9), ('axis', None), train=_TRAIN_REMOVED)
    _warn_small_batch(x, gamma)
    return BatchNormalization(eps, running_mean, running_var, decay, axis).apply(
        (x, gamma, beta))[0]


@guarded
def fixed_batch_normalization(x: VariableOrArray, gamma: VariableOrArray,
                              beta: VariableOrArray, mean: VariableOrArray,
                              var: VariableOrArray, eps: float = 2e-5,
                              axis: int | tuple[int, ...] | None = None) -> Variable:
    """Batch normalization with fixed statistics (the inference form).

    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``, differentiable with
    respect to all five inputs. The forward runs through cuDNN where
    :func:`batch_normalization`'s does.

    Args:
        x: the input variable.
        gamma: the scaling parameter, of the shape of ``x`` without the aggregated axes.
        beta: the shifting parameter, of the shape of ``gamma``.
        mean: the mean to subtract, of the shape of ``gamma``.
        var: the variance to divide by (its square root), of the shape of ``gamma``.
        eps: added to the variance.
        axis: the aggregated axes (None for axis 0 and those after ``gamma``'s).

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when a parameter does not fit ``x``.
    """
    return FixedBatchNormalization(eps, axis).apply((x, gamma, beta, mean, var))[0]


class _NormalizationGrad(BackwardNode):
    """A gradient node of batch normalization: it keeps the primal's ``eps`` and ``axis``."""

    def __init__(self, eps: float = 2e-5, axis: int | tuple[int, ...] | None = None) -> None:
        self.eps = eps
        self.axis = axis


class BatchNormalizationGrad(_NormalizationGrad):
    """The gradients of :class:`BatchNormalization` (batch statistics):
    ``(x, gamma, beta, gy)`` to ``(gx, ggamma, gbeta)``; differentiable again.

    Args:
        eps: added to the variance.
        axis: the aggregated axes, as in :func:`batch_normalization`.
    """

    n_in = 3

    def primal(self) -> FunctionNode:
        return BatchNormalization(self.eps, None, None, 0.9, self.axis)


class FixedBatchNormalizationGrad(_NormalizationGrad):
    """The gradients of :class:`FixedBatchNormalization`:
    ``(x, gamma, beta, mean, var, gy)`` to the gradients of those five inputs.

    Args:
        eps: added to the variance.
        axis: the aggregated axes, as in :func:`fixed_batch_normalization`.
    """

    n_in = 5

    def primal(self) -> FunctionNode:
        return FixedBatchNormalization(self.eps, self.axis)
