"""The compiled ReLU and its gradient give the NumPy path's numbers bit for bit."""

import numpy
import pytest

import chainer
import chainer.functions as F

pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')


@pytest.fixture(autouse=True)
def _kernel_from_any_size(monkeypatch):
    from chainer.functions.activation import relu
    monkeypatch.setattr(relu, '_KERNEL_MIN_SIZE', 1)  # the kernel on small arrays too


def _grads(mode, x, gy, double):
    xv = chainer.Variable(x.copy())
    with chainer.using_config('use_numba', mode):
        y = F.relu(xv)
        if double:  # through ReLUGrad's forward (enable_backprop on)
            gx, = chainer.grad([y], [xv], grad_outputs=[chainer.Variable(gy)],
                               enable_double_backprop=True)
            return gx.array
        y.grad = gy
        y.backward()
    return xv.grad


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize('shape', [(), (1,), (7, 5), (2, 3, 4, 5), (3, 41, 50), (64, 64)])
@pytest.mark.parametrize('double', [False, True])
def test_relu_gradient_is_bit_identical(dtype, shape, double):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    if x.size > 3:
        x.flat[::4] = 0.0          # y == 0: no gradient
        x.flat[1::5] = numpy.nan   # NaN input
        gy.flat[2::6] = numpy.nan  # NaN gradient
        gy.flat[3::7] = -0.0
    ref = _grads('never', x, gy, double)
    got = _grads('always', x, gy, double)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    assert got.tobytes() == ref.tobytes()


def test_non_contiguous_gradients_take_the_numpy_path():
    x = numpy.linspace(-1, 1, 24, dtype=numpy.float32).reshape(4, 6)
    gy = numpy.arange(48, dtype=numpy.float32).reshape(4, 12)[:, ::2]
    ref = _grads('never', x, gy, False)
    got = _grads('always', x, gy, False)
    assert got.tobytes() == ref.tobytes()


def _forward(mode, x):
    with chainer.using_config('use_numba', mode):
        return F.relu(x).array


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize('shape', [(), (0,), (1,), (7, 5), (3, 41, 50), (64, 64)])
def test_relu_forward_is_bit_identical(dtype, shape):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    if x.size > 3:
        x.flat[::4] = -0.0
        x.flat[1::5] = numpy.nan
        x.flat[2::6] = -numpy.nan  # NaN with its sign bit set
        x.flat[3::7] = numpy.inf
        x.flat[5::7] = -numpy.inf
        x.flat[6::9] = numpy.finfo(dtype).tiny / 2  # subnormal
    ref = _forward('never', x)
    got = _forward('always', x)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    assert got.tobytes() == ref.tobytes()


def test_relu_forward_runs_the_kernel_on_contiguous_float_arrays(monkeypatch):
    from chainer.functions.activation import _relu_kernels
    calls = []
    real = _relu_kernels.relu
    monkeypatch.setattr(_relu_kernels, 'relu', lambda *a: calls.append(1) or real(*a))
    x = numpy.linspace(-1, 1, 48, dtype=numpy.float32).reshape(4, 12)
    strided = _forward('always', x[:, ::2])  # not contiguous: NumPy
    assert not calls
    numpy.testing.assert_array_equal(strided, numpy.maximum(x[:, ::2], 0))
    _forward('always', x)
    assert calls
