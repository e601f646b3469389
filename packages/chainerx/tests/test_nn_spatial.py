"""conv, conv_transpose, max_pool and average_pool: values against loops over windows
written here with NumPy, gradients of the first and second order numerically."""

import itertools

import numpy
import pytest
from numeric_grad import check_first_and_second_order

import chainerx

rng = numpy.random.RandomState(3)


def _np(a):
    return chainerx.to_numpy(a)


def _out(n, k, s, p, cover_all):
    return (n + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def _pad(x, p, value=0.0):
    return numpy.pad(x, [(0, 0), (0, 0)] + [(q, q + 8) for q in p], constant_values=value)


def conv_reference(x, w, b, s, p, cover_all):
    nd = x.ndim - 2
    out = [_out(n, k, ss, pp, cover_all) for n, k, ss, pp in zip(x.shape[2:], w.shape[2:], s, p)]
    xp = _pad(x, p)
    y = numpy.zeros((x.shape[0], w.shape[0]) + tuple(out))
    for o in itertools.product(*[range(n) for n in out]):
        window = tuple(slice(oo * ss, oo * ss + k) for oo, ss, k in zip(o, s, w.shape[2:]))
        patch = xp[(slice(None), slice(None)) + window]  # (N, C, *k)
        y[(slice(None), slice(None)) + o] = numpy.tensordot(
            patch, w, axes=([1] + list(range(2, 2 + nd)), [1] + list(range(2, 2 + nd))))
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def conv_transpose_reference(x, w, b, s, p, outsize):
    nd = x.ndim - 2
    k = w.shape[2:]
    full = [max(ss * (n - 1) + kk, o + 2 * pp)
            for ss, n, kk, o, pp in zip(s, x.shape[2:], k, outsize, p)]
    y = numpy.zeros((x.shape[0], w.shape[1]) + tuple(full))
    for i in itertools.product(*[range(n) for n in x.shape[2:]]):
        window = tuple(slice(ii * ss, ii * ss + kk) for ii, ss, kk in zip(i, s, k))
        contrib = numpy.tensordot(x[(slice(None), slice(None)) + i], w, axes=([1], [0]))
        y[(slice(None), slice(None)) + window] += contrib
    y = y[(slice(None), slice(None)) + tuple(slice(pp, pp + o) for pp, o in zip(p, outsize))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


CONV_CASES = [
    ((2, 3), (4, 3), 1, 0, False),
    ((2, 3, 7), (2, 3, 3), 3, 1, True),
    ((1, 2, 5, 4), (3, 2, 3, 2), (2, 1), (1, 0), False),
    ((1, 2, 5, 4), (3, 2, 3, 2), (2, 3), (1, 2), True),
    ((1, 1, 3, 4, 3), (2, 1, 2, 3, 1), (1, 2, 3), (0, 1, 1), False),
]


@pytest.mark.parametrize('x_shape,w_shape,stride,pad,cover_all', CONV_CASES)
@pytest.mark.parametrize('with_bias', [True, False])
def test_conv(x_shape, w_shape, stride, pad, cover_all, with_bias):
    nd = len(x_shape) - 2
    s = (stride,) * nd if isinstance(stride, int) else stride
    p = (pad,) * nd if isinstance(pad, int) else pad
    x, w = rng.uniform(-1, 1, x_shape), rng.uniform(-1, 1, w_shape)
    b = rng.uniform(-1, 1, w_shape[0]) if with_bias else None
    args = [x, w] + ([b] if with_bias else [])

    def f(*a):
        return chainerx.conv(a[0], a[1], a[2] if with_bias else None, stride, pad, cover_all)

    y = f(*[chainerx.array(a) for a in args])
    numpy.testing.assert_allclose(_np(y), conv_reference(x, w, b, s, p, cover_all),
                                  rtol=1e-12, atol=1e-12)
    check_first_and_second_order(f, *args)


@pytest.mark.parametrize('x_shape,w_shape,stride,pad,cover_all', CONV_CASES)
@pytest.mark.parametrize('with_bias', [True, False])
def test_conv_transpose(x_shape, w_shape, stride, pad, cover_all, with_bias):
    nd = len(x_shape) - 2
    s = (stride,) * nd if isinstance(stride, int) else stride
    p = (pad,) * nd if isinstance(pad, int) else pad
    w_shape = (w_shape[1], w_shape[0]) + w_shape[2:]
    x, w = rng.uniform(-1, 1, x_shape), rng.uniform(-1, 1, w_shape)
    b = rng.uniform(-1, 1, w_shape[1]) if with_bias else None
    args = [x, w] + ([b] if with_bias else [])
    # the output size a convolution (with cover_all) maps back to the input size
    outsize = tuple(ss * (n - 1) + k - 2 * pp - (ss - 1 if cover_all else 0)
                    for ss, n, k, pp in zip(s, x_shape[2:], w_shape[2:], p))

    def f(*a):
        return chainerx.conv_transpose(a[0], a[1], a[2] if with_bias else None, stride, pad,
                                       outsize)

    y = f(*[chainerx.array(a) for a in args])
    numpy.testing.assert_allclose(_np(y), conv_transpose_reference(x, w, b, s, p, outsize),
                                  rtol=1e-12, atol=1e-12)
    check_first_and_second_order(f, *args)


def test_conv_transpose_default_outsize():
    x, w = rng.uniform(-1, 1, (1, 2, 4)), rng.uniform(-1, 1, (2, 3, 3))
    y = chainerx.conv_transpose(chainerx.array(x), chainerx.array(w), None, 2, 1)
    assert y.shape == (1, 3, 2 * 3 + 3 - 2)
    numpy.testing.assert_allclose(_np(y), conv_transpose_reference(x, w, None, (2,), (1,), (7,)))


def test_conv_of_mixed_and_integer_dtypes():
    x = chainerx.array(rng.randint(-2, 3, (1, 2, 4)), 'int8')
    w = chainerx.array(rng.randint(-2, 3, (3, 2, 2)), 'int16')
    y = chainerx.conv(x, w)
    assert y.dtype == chainerx.int16
    expected = conv_reference(_np(x).astype(float), _np(w).astype(float), None, (1,), (0,),
                              False)
    numpy.testing.assert_array_equal(_np(y), expected)
    xf = chainerx.array(rng.uniform(-1, 1, (1, 2, 4)), 'float16')
    assert chainerx.conv(xf, chainerx.array(_np(w), 'float32')).dtype == chainerx.float32
    yb = chainerx.conv(chainerx.array(_np(x) != 0), chainerx.array(_np(w) != 0))
    assert yb.dtype == chainerx.bool_


@pytest.mark.parametrize('x_shape,w_shape,b_shape,stride,pad', [
    ((1, 3, 4, 3), (5, 4, 2, 2), (5,), 3, 2),
    ((2, 3, 4, 3), (5, 3, 2, 2, 1), (5,), 3, 2),
    ((1, 3, 4, 3), (5, 3, 2, 2), (6,), 1, 0),
    ((2, 3, 4, 3), (5, 3, 2, 2), None, (1,), 0),
    ((1, 3, 4, 3), (5, 3, 2, 2), None, 3, (2,)),
])
def test_conv_rejects_shapes_that_do_not_fit(x_shape, w_shape, b_shape, stride, pad):
    args = [chainerx.zeros(x_shape), chainerx.zeros(w_shape),
            None if b_shape is None else chainerx.zeros(b_shape)]
    with pytest.raises(chainerx.DimensionError):
        chainerx.conv(*args, stride, pad)


def _pool_reference(x, k, s, p, cover_all, reduce, pad_value):
    out = [_out(n, kk, ss, pp, cover_all) for n, kk, ss, pp in zip(x.shape[2:], k, s, p)]
    xp = _pad(x, p, pad_value)
    real = _pad(numpy.ones_like(x), p, 0.0)
    y = numpy.zeros(x.shape[:2] + tuple(out))
    for o in itertools.product(*[range(n) for n in out]):
        window = (slice(None), slice(None)) + tuple(
            slice(oo * ss, oo * ss + kk) for oo, ss, kk in zip(o, s, k))
        y[(slice(None), slice(None)) + o] = reduce(xp[window], real[window])
    return y


POOL_CASES = [
    ((2, 3, 5), (2,), 2, 1),
    ((1, 2, 5, 4), (2, 3), None, (1, 0)),
    ((1, 2, 5, 4), (3, 2), (2, 1), 1),
    ((1, 1, 3, 4, 3), (1, 3, 2), (1, 2, 3), (0, 1, 1)),
]


@pytest.mark.parametrize('x_shape,ksize,stride,pad', POOL_CASES)
@pytest.mark.parametrize('cover_all', [True, False])
def test_max_pool(x_shape, ksize, stride, pad, cover_all):
    nd = len(ksize)
    s = ksize if stride is None else ((stride,) * nd if isinstance(stride, int) else stride)
    p = (pad,) * nd if isinstance(pad, int) else pad
    # distinct values: the maximum of each window is unique
    x = rng.permutation(int(numpy.prod(x_shape))).reshape(x_shape) / 10.0

    def f(a):
        return chainerx.maximum(chainerx.max_pool(a, ksize, stride, pad, cover_all), -1e4)

    expected = _pool_reference(x, ksize, s, p, cover_all,
                               lambda win, real: win.max(axis=tuple(range(2, 2 + nd))),
                               -numpy.inf)
    numpy.testing.assert_array_equal(_np(f(chainerx.array(x))), numpy.maximum(expected, -1e4))
    check_first_and_second_order(f, x)


@pytest.mark.parametrize('x_shape,ksize,stride,pad', POOL_CASES)
@pytest.mark.parametrize('pad_mode', ['zero', 'ignore'])
def test_average_pool(x_shape, ksize, stride, pad, pad_mode):
    nd = len(ksize)
    s = ksize if stride is None else ((stride,) * nd if isinstance(stride, int) else stride)
    p = (pad,) * nd if isinstance(pad, int) else pad
    x = rng.uniform(-1, 1, x_shape)
    axes = tuple(range(2, 2 + nd))
    if pad_mode == 'zero':
        def reduce(win, real):
            return win.sum(axis=axes) / numpy.prod(ksize)
    else:
        def reduce(win, real):
            return win.sum(axis=axes) / real.sum(axis=axes)

    def f(a):
        return chainerx.average_pool(a, ksize, stride, pad, pad_mode)

    numpy.testing.assert_allclose(_np(f(chainerx.array(x))),
                                  _pool_reference(x, ksize, s, p, False, reduce, 0.0),
                                  rtol=1e-12)
    check_first_and_second_order(f, x)


@pytest.mark.parametrize('x_shape,ksize,stride,pad', [
    ((1, 3), (), 1, 0), ((2, 3, 4, 3), (2, 2, 1), 3, 2), ((2, 3, 4, 3), (2, 2), (1,), 0),
    ((1, 3, 4, 3), (2, 2), 3, (2,)), ((4, 4, 2, 2), 5, 3, 0)])
def test_pooling_rejects_bad_geometry(x_shape, ksize, stride, pad):
    x = chainerx.zeros(x_shape)
    with pytest.raises(chainerx.DimensionError):
        chainerx.max_pool(x, ksize, stride, pad)
    with pytest.raises(chainerx.DimensionError):
        chainerx.average_pool(x, ksize, stride, pad)
    with pytest.raises(ValueError):
        chainerx.average_pool(chainerx.zeros((1, 1, 2)), 1, pad_mode='edge')
