"""Batch normalization through cuDNN graphs (cudnn-frontend), on CuPy arrays.

With the ``cudnn`` extra, :func:`chainer.functions.batch_normalization` and
:func:`~chainer.functions.fixed_batch_normalization` run three cuDNN graphs, which
share :mod:`chainer._cudnn`'s frontend, handles and plan cache (one plan per graph,
shape, dtype and setting; a refusal is remembered and asked once):

- :func:`forward`, the training forward (the frontend's ``batchnorm``): the output and
  the batch's mean and inverse standard deviation ``1 / sqrt(var + eps)`` in float32,
  as the NumPy path's ``mean`` and ``inv_std``. The graph has no running statistics:
  the caller updates them from the saved ones (the biased variance is
  ``1 / inv_std ** 2 - eps``, see :func:`batch_variance`) with the NumPy path's
  arithmetic, ``decay * running + (1 - decay) * batch`` and the unbiased variance for
  the running one, because cuDNN documents its own update only as
  ``(1 - momentum) * previous + momentum * current`` without saying which variance
  ``current`` is;
- :func:`inference`, for fixed statistics (``batchnorm_inference``), given the inverse
  standard deviations;
- :func:`backward` (``batchnorm_backward``): ``gx``, ``ggamma`` and ``gbeta`` from the
  saved mean and inverse standard deviation. A backward that is itself differentiated
  (``enable_backprop``) keeps the composed path.

As for convolutions, plans that need no workspace are taken where cuDNN has one; for
batch normalization, unlike convolutions, a graph with no such plan takes one that
needs a workspace rather than none.

Only the common case runs here (:func:`usable`): ``x`` of 2 to 5 axes in float16 or
float32 with the channels on axis 1 and the statistics over every other axis (the
default ``axis=None`` with a one-axis ``gamma``); the rest, and every call cuDNN
declines, returns None and takes the CuPy path. cuDNN sees ``x`` with its strides,
NCHW (a 2- or 3-axis ``x`` gets trailing unit axes), and the per-channel arrays in
float32.

Settings:

- ``use_cudnn``: ``'never'``: never; ``'always'``: wherever supported; ``'auto'``
  (v7 took cuDNN for every batch normalization): only for ``x`` of
  :data:`AUTO_MIN_ELEMENTS` elements or more. cudnn-frontend's ``execute`` costs
  0.15-0.45 ms on the host while the GPU has work queued (measured for convolutions
  on an H200, see :mod:`chainer._cudnn`), about what the CuPy path's launches cost,
  and what cuDNN can save is GPU time: some of the eight to ten passes the CuPy path
  makes over ``x``. Below 2^24 float32 elements (64 MB), where those passes take
  about 0.1 ms on an H200, the step waits on the host rather than on the GPU and
  cuDNN cannot make it faster; above, the GPU time dominates and fewer passes can
  pay. Unmeasured on a GPU so far.
- ``cudnn_deterministic``: plans that cuDNN marks non-deterministic are left out, as
  for convolutions (a graph with no other plan takes the CuPy path).
- ``cudnn_fast_batch_normalization`` (v7: cuDNN's ``CUDNN_BATCHNORM_SPATIAL_PERSISTENT``
  mode, faster and able to overflow): accepted, with no effect. The frontend's
  ``batchnorm`` node has no mode to choose; cuDNN's heuristics pick its kernels.
- ``use_cudnn_tensor_core`` and ``autotune`` concern convolutions only (as in v7).
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import _cudnn, backend, configuration
from chainer.backends import cuda

#: Elements of ``x`` from which ``use_cudnn='auto'`` takes cuDNN (below, the host cost
#: of a cuDNN call is more than the GPU time it can save over the CuPy path).
AUTO_MIN_ELEMENTS = 1 << 24
_DTYPES = (numpy.dtype(numpy.float16), numpy.dtype(numpy.float32))
_F32 = numpy.dtype(numpy.float32)


def usable(x: Any, gamma: Any, aggr: tuple[int, ...]) -> bool:
    """Whether batch normalization of ``x`` with parameters like ``gamma``, reduced over
    the axes ``aggr``, may run through cuDNN (the settings, the arrays and the
    frontend allowing)."""
    mode = getattr(configuration.config, 'use_cudnn', 'auto')
    if mode == 'never' or type(x) is not cuda.ndarray or type(gamma) is not cuda.ndarray:
        return False
    ndim = x.ndim
    if (x.dtype not in _DTYPES or not 2 <= ndim <= 5 or gamma.ndim != 1 or x.size == 0
            or aggr != (0, *range(2, ndim))):
        return False
    if mode == 'auto' and x.size < AUTO_MIN_ELEMENTS:
        return False
    return _cudnn.frontend() is not None


def batch_variance(inv_std: Any, eps: float) -> Any:
    """The batch's (biased) variance from the inverse standard deviation
    ``1 / sqrt(var + eps)`` cuDNN saves (at least 0: rounding may take a variance
    that is much smaller than ``eps`` below it)."""
    var = 1 / (inv_std * inv_std) - inv_std.dtype.type(eps)
    return backend.get_array_module(var).maximum(var, 0, out=var)


def _dims(shape: tuple[int, ...]) -> list[int]:
    """The shape cuDNN sees: at least 4 axes (trailing unit ones added)."""
    return list(shape) + [1] * (4 - len(shape))


def _graph(dims: list[int], dtype: numpy.dtype,
           handle: Any) -> tuple[Any, Any, Any, list[int]]:
    """A new graph with ``dtype`` as its io type and float32 computations (float16 and
    float32 only), the frontend's ``(io, float32)`` data types, and the dims of a
    per-channel tensor of ``dims``."""
    graph, io, f32 = _cudnn.new_graph(dtype, handle)
    return graph, io, f32, [1, dims[1]] + [1] * (len(dims) - 2)


def _forward_graph(dims: list[int], dtype: numpy.dtype,
                   handle: Any) -> tuple[Any, tuple[Any, ...]]:
    graph, io, f32, per_channel = _graph(dims, dtype, handle)
    x = _cudnn.tensor(graph, 'x', dims, io)
    scale = _cudnn.tensor(graph, 'scale', per_channel, f32)
    bias = _cudnn.tensor(graph, 'bias', per_channel, f32)
    # epsilon passed by value, its host address in the variant pack (as the CPU tensors
    # of cudnn-frontend's test/python/test_batchnorm.py, test_bn_relu_with_mask)
    ones = [1] * len(dims)
    eps = graph.tensor(name='epsilon', dim=ones, stride=ones, data_type=f32,
                       is_pass_by_value=True)
    # pygraph.batchnorm(input, scale, bias, in_running_mean, in_running_var, epsilon,
    # momentum, peer_stats, compute_data_type, name) returns [Y, MEAN, INV_VARIANCE,
    # NEXT_RUNNING_MEAN, NEXT_RUNNING_VAR] (cudnn-frontend docs, operations/
    # Normalizations.md "Batchnorm Forward"; python/pygraph/norm.cpp). Without running
    # statistics the last two are None (Graph::batchnorm in graph_interface.h creates
    # them only when the previous running mean, variance and momentum are all given).
    # The keyword names are in the compiled module of the 1.14.1 wheel.
    y, mean, inv_std, _, _ = graph.batchnorm(
        input=x, scale=scale, bias=bias, in_running_mean=None, in_running_var=None,
        epsilon=eps, momentum=None, name='bn')
    _cudnn.set_output(y, dims, io)
    _cudnn.set_output(mean, per_channel, f32)
    _cudnn.set_output(inv_std, per_channel, f32)
    return graph, (x, scale, bias, eps, y, mean, inv_std)


def _inference_graph(dims: list[int], dtype: numpy.dtype,
                     handle: Any) -> tuple[Any, tuple[Any, ...]]:
    graph, io, f32, per_channel = _graph(dims, dtype, handle)
    x = _cudnn.tensor(graph, 'x', dims, io)
    mean, inv_std, scale, bias = (_cudnn.tensor(graph, name, per_channel, f32)
                                  for name in ('mean', 'inv_variance', 'scale', 'bias'))
    # pygraph.batchnorm_inference(input, mean, inv_variance, scale, bias,
    # compute_data_type, name) returns Y (python/pygraph/norm.cpp; the graph of
    # test_bn_infer_drelu_dbn in test/python/test_batchnorm.py)
    y = graph.batchnorm_inference(input=x, mean=mean, inv_variance=inv_std, scale=scale,
                                  bias=bias, name='bn_inference')
    _cudnn.set_output(y, dims, io)
    return graph, (x, mean, inv_std, scale, bias, y)


def _backward_graph(dims: list[int], dtype: numpy.dtype,
                    handle: Any) -> tuple[Any, tuple[Any, ...]]:
    graph, io, f32, per_channel = _graph(dims, dtype, handle)
    gy = _cudnn.tensor(graph, 'gy', dims, io)
    x = _cudnn.tensor(graph, 'x', dims, io)
    scale, mean, inv_std = (_cudnn.tensor(graph, name, per_channel, f32)
                            for name in ('scale', 'mean', 'inv_variance'))
    # pygraph.batchnorm_backward(grad, input, scale, mean, inv_variance, peer_stats,
    # compute_data_type, name) returns [DX, DSCALE, DBIAS] (python/pygraph/norm.cpp;
    # test_drelu_dadd_dbn in test/python/test_batchnorm.py, with dscale and dbias set
    # to float32)
    gx, ggamma, gbeta = graph.batchnorm_backward(grad=gy, input=x, scale=scale, mean=mean,
                                                 inv_variance=inv_std, name='bn_backward')
    _cudnn.set_output(gx, dims, io)
    _cudnn.set_output(ggamma, per_channel, f32)
    _cudnn.set_output(gbeta, per_channel, f32)
    return graph, (gy, x, scale, mean, inv_std, gx, ggamma, gbeta)


_GRAPHS = {'forward': _forward_graph, 'inference': _inference_graph,
           'backward': _backward_graph}


def _build(op: str, dims: list[int], dtype: numpy.dtype, deterministic: bool,
           handle: Any) -> _cudnn._Plan:
    """The plan of ``op``'s graph: one without a workspace if cuDNN has one (as for
    convolutions: with a workspace, the frontend's ``execute`` blocked the host), else
    one with (raises where cuDNN supports neither). Tensor cores are no setting of
    batch normalization: plans that use them are kept."""
    try:
        return _cudnn.finish(*_GRAPHS[op](dims, dtype, handle), deterministic, True)
    except Exception:
        return _cudnn.finish(*_GRAPHS[op](dims, dtype, handle), deterministic, True,
                             workspace=True)


def _plan(op: str, x: Any) -> tuple[Any, Any] | None:
    """The plan of ``op`` for ``x`` (a C-contiguous CuPy array) and this thread's
    handle, or None where cuDNN declines it."""
    dims = _dims(x.shape)
    deterministic = _cudnn.current_settings(x.dtype)[0]
    handle = _cudnn.current_handle()
    key = ('bn_' + op, tuple(dims), x.dtype, deterministic, x.data.device_id)
    plan = _cudnn.cached(key, lambda: _build(op, dims, x.dtype, deterministic, handle))
    return None if plan is None else (plan, handle)


def _per_channel(a: Any) -> Any:
    """A per-channel array as cuDNN takes it: float32, C-contiguous and aligned."""
    return _cudnn.aligned(cuda.cupy, a.astype(_F32, copy=False))


def forward(x: Any, gamma: Any, beta: Any, eps: float) -> tuple[Any, Any, Any] | None:
    """``(y, mean, inv_std)`` of batch normalization with the batch's statistics (the
    last two of shape ``(C,)``, float32), or None where cuDNN declines the call."""
    cupy = cuda.cupy
    x = _cudnn.aligned(cupy, x)
    found = _plan('forward', x)
    if found is None:
        return None
    plan, handle = found
    c = x.shape[1]
    scale, bias = _per_channel(gamma), _per_channel(beta)
    y = cupy.empty(x.shape, x.dtype)
    mean, inv_std = cupy.empty(c, _F32), cupy.empty(c, _F32)
    eps_host = numpy.full(1, eps, _F32)  # read by value when the graph is launched
    _cudnn.execute(plan, (x.data.ptr, scale.data.ptr, bias.data.ptr, eps_host.ctypes.data,
                          y.data.ptr, mean.data.ptr, inv_std.data.ptr), handle)
    return y, mean, inv_std


def inference(x: Any, gamma: Any, beta: Any, mean: Any, inv_std: Any) -> Any | None:
    """``gamma * (x - mean) * inv_std + beta`` (the parameters of shape ``(C,)``), or
    None where cuDNN declines the call."""
    cupy = cuda.cupy
    x = _cudnn.aligned(cupy, x)
    found = _plan('inference', x)
    if found is None:
        return None
    plan, handle = found
    params = [_per_channel(a) for a in (mean, inv_std, gamma, beta)]
    y = cupy.empty(x.shape, x.dtype)
    _cudnn.execute(plan, (x.data.ptr, *(p.data.ptr for p in params), y.data.ptr), handle)
    return y


def backward(x: Any, gamma: Any, gy: Any, mean: Any,
             inv_std: Any) -> tuple[Any, Any, Any] | None:
    """``(gx, ggamma, gbeta)`` of batch normalization with the batch's statistics, from
    the ``mean`` and ``inv_std`` its forward saved (``ggamma`` and ``gbeta`` of shape
    ``(C,)``, float32), or None where cuDNN declines the call."""
    if gy.dtype != x.dtype or gy.shape != x.shape:
        return None
    cupy = cuda.cupy
    x, gy = _cudnn.aligned(cupy, x), _cudnn.aligned(cupy, gy)
    found = _plan('backward', x)
    if found is None:
        return None
    plan, handle = found
    params = [_per_channel(a) for a in (gamma, mean, inv_std)]
    c = x.shape[1]
    gx = cupy.empty(x.shape, x.dtype)
    ggamma, gbeta = cupy.empty(c, _F32), cupy.empty(c, _F32)
    _cudnn.execute(plan, (gy.data.ptr, x.data.ptr, *(p.data.ptr for p in params),
                          gx.data.ptr, ggamma.data.ptr, gbeta.data.ptr), handle)
    return gx, ggamma, gbeta
