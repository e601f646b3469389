"""Neural-network routines written as compositions of the differentiable ones, so
their gradients (and gradients of gradients) come from those: linear, batch
normalization, and the sigmoid / softmax cross-entropy losses."""

from __future__ import annotations

from typing import Any

from chainerx import _dtypes, _manipulation, _math, _reduction
from chainerx._array import make, ndarray
from chainerx._errors import DimensionError


def linear(x: ndarray, W: ndarray, b: ndarray | None = None,
           n_batch_axes: int = 1) -> ndarray:
    """``x W^T + b``, the first *n_batch_axes* axes of *x* being batch axes, in the
    promoted dtype of the three (bools alone: a logical product and sum)."""
    if n_batch_axes <= 0:
        raise DimensionError('n_batch_axes must be positive')
    if b is not None:
        dtype = _dtypes.promote_dtypes([x.dtype, W.dtype, b.dtype])
        x, W, b = (a if a.dtype == dtype else _math.astype(a, dtype, False)
                   for a in (x, W, b))
    batch_shape = x.shape[:n_batch_axes]
    rows = 1
    for n in batch_shape:
        rows *= n
    x2 = _manipulation.reshape(x, (rows, -1)) if x.ndim != 2 or n_batch_axes != 1 else x
    y = x2 @ _manipulation.transpose(W)
    if b is not None:
        both_bool = y.dtype.kind == 'b' and b.dtype.kind == 'b'
        y = _math.logical_or(y, b) if both_bool else _math.add(y, b)
    if n_batch_axes != 1 or x.ndim != 2:
        y = _manipulation.reshape(y, batch_shape + (W.shape[0],))
    return y


def _bn_axes(x: ndarray, axis: Any) -> tuple[int, ...]:
    """The axes batch normalization reduces (default: the batch axis only)."""
    if axis is None:
        return (0,)
    return _reduction.normalize_axes(axis, x.ndim)


def _expand(p: ndarray, x: ndarray, axes: tuple[int, ...], name: str) -> ndarray:
    """Parameter *p*, of *x*'s shape without *axes*, reshaped to broadcast against *x*."""
    reduced = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    if p.shape != reduced:
        raise DimensionError(f'{name} of shape {p.shape} for input {x.shape} reduced over '
                             f'axes {axes} (expected {reduced})')
    return _manipulation.reshape(p, tuple(1 if i in axes else n for i, n in enumerate(x.shape)))


def batch_norm(x: ndarray, gamma: ndarray, beta: ndarray, running_mean: ndarray | None = None,
               running_var: ndarray | None = None, eps: float = 2e-5, decay: float = 0.9,
               axis: Any = None) -> ndarray:
    """Batch normalization over *axis* (default: the batch axis 0) with the batch's
    statistics; the parameters have *x*'s shape without *axis*; *running_mean* and
    *running_var* are updated in place (the variance unbiased), ``running = decay *
    running + (1 - decay) * batch``. The output has *x*'s dtype."""
    axes = _bn_axes(x, axis)
    g = _expand(gamma, x, axes, 'gamma')
    b = _expand(beta, x, axes, 'beta')
    for running, name in ((running_mean, 'running_mean'), (running_var, 'running_var')):
        if running is not None:
            _expand(running, x, axes, name)
    mean = _reduction.mean(x, axes, keepdims=True)
    centered = _math.subtract(x, mean)
    var = _reduction.mean(_math.square(centered), axes, keepdims=True)
    y = _math.divide(centered, _math.sqrt(_math.add(var, eps)))
    y = _math.add(_math.multiply(y, g), b)
    m = x.size // max(1, mean.size)
    adjust = m / max(1, m - 1)
    for running, stat, scale in ((running_mean, mean, 1.0), (running_var, var, adjust)):
        if running is None:
            continue
        value = stat.as_grad_stopped()._data.reshape(running.shape) * scale
        running._data *= decay
        running._data += (1 - decay) * value.astype(running.dtype, copy=False)
    return _math.astype(y, x.dtype, False)


def fixed_batch_norm(x: ndarray, gamma: ndarray, beta: ndarray, mean: ndarray, var: ndarray,
                     eps: float = 2e-5, axis: Any = None) -> ndarray:
    """Batch normalization with given statistics *mean* and *var* (shaped as the
    parameters of :func:`batch_norm`); the output has *x*'s dtype."""
    axes = _bn_axes(x, axis)
    g, b = _expand(gamma, x, axes, 'gamma'), _expand(beta, x, axes, 'beta')
    m, v = _expand(mean, x, axes, 'mean'), _expand(var, x, axes, 'var')
    inv = _math.divide(g, _math.sqrt(_math.add(v, eps)))
    y = _math.add(_math.multiply(_math.subtract(x, m), inv), b)
    return _math.astype(y, x.dtype, False)


def sigmoid_cross_entropy(x1: ndarray, x2: ndarray) -> ndarray:
    """Element-wise sigmoid cross entropy of logits *x1* and 0/1 labels *x2* (labels
    of -1 are ignored: their loss is 0)."""
    t = _math.astype(x2.as_grad_stopped(), x1.dtype, False)
    ignore = _math.equal(x2.as_grad_stopped(), -1)
    # log(1 + exp(-|x|)) + max(x, 0) - x t
    loss = _math.add(_math.log1p(_math.exp(_math.negative(_math.absolute(x1)))),
                     _math.subtract(_math.relu(x1), _math.multiply(x1, t)))
    return _math.where(ignore, x1.dtype.type(0), loss)


def softmax_cross_entropy(x1: ndarray, x2: ndarray) -> ndarray:
    """Per-sample softmax cross entropy of logits *x1* (N, C) and labels *x2* (N,)
    (a label of -1 is ignored: its loss is 0)."""
    if x1.ndim != 2:
        raise DimensionError('softmax_cross_entropy needs 2-d logits')
    log_p = _reduction.log_softmax(x1, 1)
    labels = x2.as_grad_stopped()
    rows = x1._device.xp.arange(x1.shape[0])
    index = labels._data.astype('int64', copy=False)
    ignore = index == -1
    chosen = log_p[(rows, index * ~ignore)]
    return _math.where(make(ignore, x1._device), x1.dtype.type(0), _math.negative(chosen))
