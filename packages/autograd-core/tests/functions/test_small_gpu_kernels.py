"""The one-launch CUDA kernels of ReLU's gradient and of bias gradients (column sums),
against NumPy; the NumPy side of first_axis_sum runs everywhere."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions import _util
from chainer.functions.activation import relu


def test_first_axis_sum_on_numpy():
    a = numpy.arange(12, dtype='f').reshape(3, 4)
    numpy.testing.assert_array_equal(_util.first_axis_sum(a), a.sum(axis=0))


@pytest.mark.gpu
@pytest.mark.parametrize('shape', [(1, 5), (8, 32), (100, 1000), (4096, 3), (5000, 3),
                                   (3, 0)])
@pytest.mark.parametrize('dtype', ['f', 'd', 'e'])
def test_first_axis_sum_on_gpu(shape, dtype):
    cupy = pytest.importorskip('cupy')
    a = numpy.random.default_rng(0).standard_normal(shape).astype(dtype)
    got = _util.first_axis_sum(cupy.asarray(a))
    assert got.dtype == a.dtype and got.shape == shape[1:]
    tol = {'f': 1e-4, 'd': 1e-12, 'e': 5e-2}[dtype]
    numpy.testing.assert_allclose(cupy.asnumpy(got).astype('d'),
                                  a.astype('d').sum(axis=0), rtol=tol, atol=tol)


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', ['f', 'd'])
def test_first_axis_sum_of_a_transposed_matrix_on_gpu(dtype):
    cupy = pytest.importorskip('cupy')
    a = numpy.random.default_rng(1).standard_normal((800, 20)).astype(dtype)
    got = _util.first_axis_sum(cupy.asarray(a).T)  # F-contiguous: rows of `a` summed
    numpy.testing.assert_allclose(cupy.asnumpy(got), a.T.sum(axis=0), rtol=1e-5)
    strided = cupy.asarray(a)[:, ::2]  # neither C- nor F-contiguous: CuPy's sum
    numpy.testing.assert_allclose(cupy.asnumpy(_util.first_axis_sum(strided)),
                                  a[:, ::2].sum(axis=0), rtol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', ['e', 'f', 'd'])
def test_relu_grad_on_gpu_matches_numpy(dtype):
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.default_rng(2)
    gy = rng.standard_normal((7, 11)).astype(dtype)
    y = numpy.maximum(rng.standard_normal((7, 11)), 0).astype(dtype)
    gy[0, :3] = numpy.nan
    y[0, :2] = 0  # NaN * 0 is NaN, as in NumPy
    got = relu._relu_grad(cupy.asarray(gy), cupy.asarray(y))
    numpy.testing.assert_array_equal(cupy.asnumpy(got), relu._relu_grad(gy, y))


@pytest.mark.gpu
def test_linear_bias_gradient_on_gpu():
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.default_rng(3)
    x, W, b = (rng.standard_normal(s).astype('f') for s in ((10, 4), (3, 4), (3,)))
    grads = []
    for xp in (numpy, cupy):
        bv = chainer.Variable(xp.asarray(b))
        y = F.relu(F.linear(xp.asarray(x), xp.asarray(W), bv))
        F.sum(y * y).backward()
        grads.append(chainer.backend.CpuDevice().send(bv.grad))
    numpy.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize('shape', [(2, 3, 5), (4, 1, 7), (1, 6, 1)])
def test_row_sums_on_gpu_as_one_product(shape):
    cupy = pytest.importorskip('cupy')
    a = numpy.random.default_rng(4).standard_normal(shape).astype('f')
    got = _util.row_sums(cupy.asarray(a), cupy)
    assert got.shape == shape[:-1]
    numpy.testing.assert_allclose(cupy.asnumpy(got), a.sum(axis=-1), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(cupy.asnumpy(_util.channel_sum(cupy.asarray(a), cupy)),
                                  a.sum(axis=(0, 2)), rtol=1e-5, atol=1e-5)
