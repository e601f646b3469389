"""The compiled max pooling (2x2 maxima, gradients) gives the NumPy path's numbers bit for
bit."""

import numpy
import pytest

import chainer
import chainer.functions as F

pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')

CASES = [  # (shape, ksize, stride, pad, cover_all)
    ((2, 3, 8, 8), 2, 2, 0, True),
    ((2, 3, 7, 9), 3, 2, 1, True),
    ((1, 2, 5, 5), 3, 1, 1, False),
    ((1, 1, 6, 4), (2, 3), (1, 2), (1, 0), True),
    ((3, 2, 1, 1), 1, 1, 0, False),
    ((0, 2, 4, 4), 2, 2, 0, True),
    ((1, 1, 5, 5), 5, 3, 2, True),
    ((2, 3, 7, 9), 2, 2, 0, False),  # 2x2 windows leaving the last row and column out
    ((3, 2, 2, 2), 2, 2, 0, True),
    ((1, 1, 6, 6), 2, 1, 0, False),
]


def _run(mode, x, ksize, stride, pad, cover_all):
    xv = chainer.Variable(x.copy())
    with chainer.using_config('use_numba', mode):
        y = F.max_pooling_2d(xv, ksize, stride, pad, cover_all)
        gy = numpy.arange(y.size, dtype=x.dtype).reshape(y.shape) / 7
        y.grad = gy
        y.backward()
        indexes = y.creator.indexes if hasattr(y.creator, 'indexes') else None
    return y.array, xv.grad, indexes


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('data', ['random', 'ties', 'nan', 'zeros', 'strided'])
def test_max_pooling_2d_is_bit_identical(case, dtype, data):
    shape, ksize, stride, pad, cover_all = case
    rng = numpy.random.default_rng(0)
    if data == 'strided':  # a non-contiguous input
        x = rng.standard_normal(shape[:3] + (2 * shape[3],)).astype(dtype)[..., ::2]
    else:
        x = rng.standard_normal(shape).astype(dtype)
    if data == 'ties' and x.size:
        x = numpy.round(x).astype(dtype)  # many equal maxima: the first one wins
    if data == 'nan' and x.size:
        x.flat[::5] = numpy.nan
    if data == 'zeros' and x.size:  # signed zeros and infinities
        x.flat[::3] = -0.0
        x.flat[1::3] = 0.0
        x.flat[::7] = -numpy.inf
        x.flat[4::11] = numpy.inf
    ref = _run('never', x, ksize, stride, pad, cover_all)
    got = _run('always', x, ksize, stride, pad, cover_all)
    assert got[0].dtype == ref[0].dtype and got[0].shape == ref[0].shape
    # bit for bit, but for the sign of a zero maximum (NumPy's maximum leaves it open)
    assert (got[0] + 0).tobytes() == (ref[0] + 0).tobytes()
    assert got[1].tobytes() == ref[1].tobytes()
    if ref[2] is not None:
        numpy.testing.assert_array_equal(got[2], ref[2])


def test_float16_and_3d_take_the_numpy_path(monkeypatch):
    from chainer.functions.pooling import _windows_kernels
    calls = []
    real = _windows_kernels.scatter_2d
    monkeypatch.setattr(_windows_kernels, 'scatter_2d', lambda *a: calls.append(1) or real(*a))

    def pool_backward(f, x):
        y = f(chainer.Variable(x), 2)
        y.grad = numpy.ones_like(y.array)
        y.backward()

    with chainer.using_config('use_numba', 'always'):
        pool_backward(F.max_pooling_2d, numpy.ones((1, 1, 4, 4), numpy.float16))
        pool_backward(F.max_pooling_3d, numpy.ones((1, 1, 4, 4, 4), numpy.float32))
        assert not calls
        pool_backward(F.max_pooling_2d, numpy.ones((1, 1, 4, 4), numpy.float32))
        assert calls


def test_2x2_windows_of_stride_2_run_the_compiled_maximum(monkeypatch):
    from chainer.functions.pooling import _windows_kernels
    calls = []
    real = _windows_kernels.max_2x2
    monkeypatch.setattr(_windows_kernels, 'max_2x2', lambda *a: calls.append(1) or real(*a))
    x = numpy.arange(2 * 3 * 7 * 9, dtype=numpy.float32).reshape(2, 3, 7, 9)
    with chainer.using_config('use_numba', 'always'):
        F.max_pooling_2d(x, 2, 2, cover_all=True)  # windows past the image: NumPy
        F.max_pooling_2d(x, 2, 2, pad=1)
        F.max_pooling_2d(x, 3, 2)
        F.max_pooling_2d(x[..., ::-1], 2, 2, cover_all=False)  # not contiguous
        assert not calls
        y = F.max_pooling_2d(x, 2, 2, cover_all=False)
        assert len(calls) == 1
        with chainer.no_backprop_mode():  # the maxima alone
            y_values = F.max_pooling_2d(x, 2, 2, cover_all=False)
        assert len(calls) == 2
    numpy.testing.assert_array_equal(y.array, x[:, :, 1:7:2, 1:9:2])
    numpy.testing.assert_array_equal(y_values.array, y.array)
