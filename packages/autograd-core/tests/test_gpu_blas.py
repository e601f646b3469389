"""chainer._gpu_blas.dot: one cuBLAS GEMM per product of CuPy matrices, against NumPy
(C- and F-contiguous operands, vectors as matrices, fallbacks)."""

import numpy
import pytest

from chainer import _cpu_blas, _gpu_blas

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')


def _layout(x, order):
    return cupy.asarray(x) if order == 'C' else cupy.asfortranarray(cupy.asarray(x))


@pytest.mark.parametrize('shapes', [((3, 4), (4, 5)), ((1, 7), (7, 1)), ((6, 1), (1, 6)),
                                    ((20, 200), (200, 33)), ((1, 1), (1, 1))])
@pytest.mark.parametrize('orders', ['CC', 'CF', 'FC', 'FF'])
@pytest.mark.parametrize('dtype', ['f', 'd'])
def test_dot_matches_numpy(shapes, orders, dtype):
    rng = numpy.random.default_rng(0)
    a, b = (rng.standard_normal(s).astype(dtype) for s in shapes)
    got = _gpu_blas.dot(_layout(a, orders[0]), _layout(b, orders[1]))
    assert got.flags.c_contiguous and got.dtype == a.dtype
    tol = 1e-5 if dtype == 'f' else 1e-12
    numpy.testing.assert_allclose(cupy.asnumpy(got), a @ b, rtol=tol, atol=tol)


def test_transposed_views_and_the_cpu_blas_entry():
    rng = numpy.random.default_rng(1)
    x, W = rng.standard_normal((8, 32)).astype('f'), rng.standard_normal((16, 32)).astype('f')
    got = _cpu_blas.dot(cupy.asarray(x), cupy.asarray(W).T)
    numpy.testing.assert_allclose(cupy.asnumpy(got), x @ W.T, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('a,b', [
    (numpy.ones((3, 4), 'e'), numpy.ones((4, 2), 'e')),  # float16: CuPy's dot
    (numpy.ones((0, 4), 'f'), numpy.ones((4, 2), 'f')),  # empty
    (numpy.ones((3, 4), 'i'), numpy.ones((4, 2), 'i')),  # integers
])
def test_other_products_fall_back_to_cupy(a, b):
    got = _gpu_blas.dot(cupy.asarray(a), cupy.asarray(b))
    numpy.testing.assert_array_equal(cupy.asnumpy(got), a.dot(b))


def test_strided_operand_falls_back():
    a = numpy.arange(24, dtype='f').reshape(4, 6)
    got = _gpu_blas.dot(cupy.asarray(a)[:, ::2], cupy.ones((3, 2), 'f'))
    numpy.testing.assert_allclose(cupy.asnumpy(got), a[:, ::2] @ numpy.ones((3, 2), 'f'))
