"""N-dimensional convolution (``conv``) and transposed convolution (``conv_transpose``).

Three differentiable primitives carry them: the convolution, the transposed convolution
and the convolution's weight gradient; the backward of each is written with the three,
so gradients of any order exist. Integer and bool inputs are computed in int64 (floats
as they are, float16 in float32) and cast to the promoted dtype of the inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainerx import _dtypes, _graph, _math, _reduction, _spatial
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import DimensionError

Ints = tuple[int, ...]


def _compute_dtype(dtype: numpy.dtype) -> numpy.dtype:
    if dtype.kind != 'f':
        return numpy.dtype(numpy.int64)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def _finish(data: Any, dtype: numpy.dtype) -> Any:
    """Computed *data* as the output *dtype* (bool: nonzero)."""
    if dtype.kind == 'b':
        return data != 0
    return data.astype(dtype, copy=False)


def _operands(arrays: Sequence[ndarray | None]) -> tuple[Any, numpy.dtype, numpy.dtype]:
    present = [a for a in arrays if a is not None]
    device = check_same_device(*present)
    out = _dtypes.promote_dtypes([a.dtype for a in present])
    return device, out, _compute_dtype(out)


def _spatial_axes(nd: int, start: int) -> list[int]:
    return list(range(start, start + nd))


def _grad_as(g: ndarray, like: ndarray) -> ndarray:
    return _math.astype(g, like.dtype, False) if g.dtype != like.dtype else g


def _bias_grad(gy: ndarray, b: ndarray) -> ndarray:
    return _grad_as(_reduction.sum(gy, [0] + _spatial_axes(gy.ndim - 2, 2)), b)


def _add_bias(xp: Any, y: Any, b: ndarray | None, ct: numpy.dtype) -> Any:
    if b is None:
        return y
    return y + b._data.astype(ct, copy=False).reshape((1, -1) + (1,) * (y.ndim - 2))


def _recorded(result: ndarray, x: ndarray, w: ndarray, b: ndarray | None,
              grad_x: Callable[[ndarray], ndarray],
              grad_w: Callable[[ndarray], ndarray]) -> ndarray:
    """*result* of a (transposed) convolution of *x* with *w* (+ *b*), recorded in the
    graphs of its inputs with the gradients ``grad_x(gy)`` and ``grad_w(gy)`` (and the
    bias's)."""
    inputs = [a for a in (x, w, b) if a is not None]
    if any(a._nodes for a in inputs):

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            gy = gys[0]
            grads = [_grad_as(grad_x(gy), x) if need[0] else None,
                     _grad_as(grad_w(gy), w) if need[1] else None]
            if b is not None:
                grads.append(_bias_grad(gy, b) if need[2] else None)
            return grads

        _graph.record(inputs, (result,), backward)
    return result


def _conv(x: ndarray, w: ndarray, b: ndarray | None, s: Ints, p: Ints, out: Ints) -> ndarray:
    """The convolution of *x* (N, C, *in) with *w* (M, C, *k), *out* windows per axis."""
    device, dtype, ct = _operands((x, w, b))
    xp = device.xp
    nd = x.ndim - 2
    k = w.shape[2:]
    with device._scope():
        xpad = _spatial.padded(xp, x._data.astype(ct, copy=False), k, s, p, out)
        cols = _spatial.windows(xp, xpad, k, s, out)  # (N, C, *out, *k)
        y = xp.tensordot(cols, w._data.astype(ct, copy=False),
                         axes=([1] + _spatial_axes(nd, 2 + nd), [1] + _spatial_axes(nd, 2)))
        y = xp.ascontiguousarray(xp.moveaxis(y, -1, 1))  # (N, M, *out)
        y = _finish(_add_bias(xp, y, b, ct), dtype)
    return _recorded(make(y, device), x, w, b,
                     lambda gy: _conv_transpose(gy, w, None, s, p, x.shape[2:]),
                     lambda gy: _conv_grad_weight(x, gy, k, s, p))


def _conv_transpose(x: ndarray, w: ndarray, b: ndarray | None, s: Ints, p: Ints,
                    outsize: Ints) -> ndarray:
    """The transposed convolution of *x* (N, C, *in) with *w* (C, M, *k) to (N, M,
    *outsize): the gradient of a convolution with respect to its input."""
    device, dtype, ct = _operands((x, w, b))
    xp = device.xp
    nd = x.ndim - 2
    k = w.shape[2:]
    with device._scope():
        cols = xp.tensordot(x._data.astype(ct, copy=False), w._data.astype(ct, copy=False),
                            axes=([1], [0]))  # (N, *in, M, *k)
        # -> (N, M, *k, *in)
        cols = cols.transpose([0, nd + 1] + _spatial_axes(nd, nd + 2) + _spatial_axes(nd, 1))
        y = _spatial.col2im(xp, cols, s, p, outsize, ct)
        y = _finish(_add_bias(xp, xp.ascontiguousarray(y), b, ct), dtype)
    return _recorded(make(y, device), x, w, b,
                     lambda gy: _conv(gy, w, None, s, p, x.shape[2:]),
                     lambda gy: _conv_grad_weight(gy, x, k, s, p))


def _conv_grad_weight(x: ndarray, gy: ndarray, k: Ints, s: Ints, p: Ints) -> ndarray:
    """The gradient (M, C, *k) of a convolution's weight, for input *x* (N, C, *in) and
    output gradient *gy* (N, M, *out)."""
    device, dtype, ct = _operands((x, gy))
    xp = device.xp
    nd = x.ndim - 2
    out = gy.shape[2:]
    with device._scope():
        xpad = _spatial.padded(xp, x._data.astype(ct, copy=False), k, s, p, out)
        cols = _spatial.windows(xp, xpad, k, s, out)  # (N, C, *out, *k)
        axes = [0] + _spatial_axes(nd, 2)
        gw = _finish(xp.tensordot(gy._data.astype(ct, copy=False), cols, axes=(axes, axes)),
                     dtype)
    result = make(gw, device)
    if x._nodes or gy._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            ggw = gys[0]
            gx = _grad_as(_conv_transpose(gy, ggw, None, s, p, x.shape[2:]), x) if need[0] \
                else None
            ggy = _grad_as(_conv(x, ggw, None, s, p, out), gy) if need[1] else None
            return [gx, ggy]

        _graph.record((x, gy), (result,), backward)
    return result


def _geometry(x: ndarray, w: ndarray, b: ndarray | None, stride: Any, pad: Any,
              w_in_axis: int, w_out_axis: int) -> tuple[Ints, Ints]:
    if not isinstance(x, ndarray) or not isinstance(w, ndarray):
        raise TypeError('x and w must be chainerx.ndarray')
    if x.ndim < 2 or w.ndim != x.ndim:
        raise DimensionError(f'x of shape {x.shape} and w of shape {w.shape} do not fit: '
                             'x is (N, C, *spatial), w has as many axes')
    if w.shape[w_in_axis] != x.shape[1]:
        raise DimensionError(f'x has {x.shape[1]} channels, w takes {w.shape[w_in_axis]}')
    if b is not None and b.shape != (w.shape[w_out_axis],):
        raise DimensionError(f'b of shape {b.shape} for {w.shape[w_out_axis]} channels')
    nd = x.ndim - 2
    return _spatial.as_tuple(stride, nd, 'stride'), _spatial.as_tuple(pad, nd, 'pad')


def conv(x: ndarray, w: ndarray, b: ndarray | None = None, stride: Any = 1, pad: Any = 0,
         cover_all: bool = False) -> ndarray:
    """N-dimensional convolution of *x* (N, C, *in) with filters *w* (M, C, *k) and
    optional bias *b* (M,): the output is (N, M, *out) with ``out = (in + 2 pad - k) //
    stride + 1`` (*cover_all*: windows also cover the last partial stride).

    Raises:
        DimensionError: shapes that do not fit, or strides/pads of the wrong length.
    """
    s, p = _geometry(x, w, b, stride, pad, 1, 0)
    out = _spatial.out_sizes(x.shape[2:], w.shape[2:], s, p, cover_all)
    return _conv(x, w, b, s, p, out)


def conv_transpose(x: ndarray, w: ndarray, b: ndarray | None = None, stride: Any = 1,
                   pad: Any = 0, outsize: Any = None) -> ndarray:
    """N-dimensional transposed convolution (deconvolution) of *x* (N, C, *in) with *w*
    (C, M, *k) and optional bias *b* (M,): the output is (N, M, *outsize), by default
    ``stride (in - 1) + k - 2 pad``.

    Raises:
        DimensionError: shapes that do not fit, or an *outsize* no convolution of the
            output would map back to *in*.
    """
    s, p = _geometry(x, w, b, stride, pad, 0, 1)
    nd = x.ndim - 2
    k = w.shape[2:]
    if outsize is None:
        size = tuple(ss * (i - 1) + kk - 2 * pp for ss, i, kk, pp in zip(s, x.shape[2:], k, p))
    else:
        size = _spatial.as_tuple(outsize, nd, 'outsize')
        for o, i, kk, ss, pp in zip(size, x.shape[2:], k, s, p):
            if i not in (_spatial.out_size(o, kk, ss, pp, False),
                         _spatial.out_size(o, kk, ss, pp, True)):
                raise DimensionError(f'outsize {size} does not fit input {x.shape[2:]}')
    if any(o <= 0 for o in size):
        raise DimensionError(f'output size {size} is not positive')
    return _conv_transpose(x, w, b, s, p, size)
