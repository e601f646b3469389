"""chainer.utils.conv, conv_nd and conv_nd_kernel."""

import ctypes
import itertools
import shutil
import subprocess
from unittest import mock

import numpy
import pytest

from chainer.backends import cuda
from chainer.utils import conv, conv_nd, conv_nd_kernel


def _im2col_ref(img, ksize, stride, pad, dilate, outs):
    col = numpy.zeros(img.shape[:2] + ksize + outs, img.dtype)
    for ks in itertools.product(*[range(k) for k in ksize]):
        for os_ in itertools.product(*[range(o) for o in outs]):
            src = tuple(o * s + k * d - p for o, s, k, d, p in zip(os_, stride, ks, dilate, pad))
            if all(0 <= v < n for v, n in zip(src, img.shape[2:])):
                col[(slice(None), slice(None)) + ks + os_] = img[(slice(None), slice(None)) + src]
    return col


@pytest.mark.parametrize('dims, ksize, stride, pad, dilate', [
    ((7,), (3,), (2,), (1,), (2,)),
    ((5, 6), (2, 3), (1, 2), (2, 0), (1, 2)),
    ((4, 3, 5), (2, 1, 2), (3, 1, 1), (1, 1, 0), (1, 1, 2)),
])
def test_im2col_col2im_nd(dims, ksize, stride, pad, dilate):
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (2, 3) + dims)
    outs = tuple(conv.get_conv_outsize(*a, d=d)
                 for a, d in zip(zip(dims, ksize, stride, pad), dilate))
    col = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, dilate=dilate)
    numpy.testing.assert_array_equal(col, _im2col_ref(img, ksize, stride, pad, dilate, outs))
    # col2im is the adjoint of im2col: <im2col(x), c> == <x, col2im(c)>
    c = rng.uniform(-1, 1, col.shape)
    back = conv_nd.col2im_nd_cpu(c, stride, pad, dims, dilate)
    assert back.shape == img.shape
    numpy.testing.assert_allclose((col * c).sum(), (img * back).sum())


def test_geometry_helpers():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    for size, k, s, p, d in itertools.product((5, 8), (1, 3), (1, 2, 3), (0, 2), (1, 2)):
        o = conv_nd.get_conv_outsize(size, k, s, p, d=d)
        dk = (k - 1) * d + 1
        assert (o - 1) * s + dk <= size + 2 * p < o * s + dk
        oc = conv_nd.get_conv_outsize(size, k, s, p, cover_all=True, d=d)
        assert (oc - 2) * s + dk < size + 2 * p <= (oc - 1) * s + dk
        assert conv_nd.get_conv_outsize(conv_nd.get_deconv_outsize(o, k, s, p, d=d),
                                        k, s, p, d=d) == o


def test_bad_ranks_raise_value_and_assertion_errors():
    img = numpy.zeros((2, 3, 4, 3))
    col = numpy.zeros((2, 3, 2, 2, 3, 2))
    calls = [
        lambda: conv_nd.as_tuple((1,), 3),
        lambda: conv_nd.im2col_nd_cpu(img, (2,), (1, 1), (0, 0)),
        lambda: conv_nd.im2col_nd_cpu(img, (2, 2), (1,), (0, 0)),
        lambda: conv_nd.im2col_nd_cpu(img, (2, 2), (1, 1), (0,)),
        lambda: conv_nd.col2im_nd_cpu(numpy.zeros((2, 3, 2, 3, 2)), (1, 1), (0, 0), (4, 3)),
        lambda: conv_nd.col2im_nd_cpu(col, (1,), (0, 0), (4, 3)),
        lambda: conv_nd.col2im_nd_cpu(col, (1, 1), (0, 0), (4,)),
        lambda: conv.im2col_cpu(img, 5, 5, 1, 1, 0, 0),  # the kernel does not fit
    ]
    for call in calls:
        with pytest.raises(ValueError):
            call()
        with pytest.raises(AssertionError):
            call()


def test_pad_spatial():
    img = numpy.arange(6.0).reshape(1, 1, 2, 3)
    assert conv.pad_spatial(img, [(0, 0), (0, 0)]) is img
    out = conv.pad_spatial(img, [(1, 0), (0, 2)], pval=-1)
    numpy.testing.assert_array_equal(
        out[0, 0], [[-1, -1, -1, -1, -1], [0, 1, 2, -1, -1], [3, 4, 5, -1, -1]])


@pytest.mark.parametrize('cls', [conv_nd_kernel.Im2colNDKernel, conv_nd_kernel.Col2imNDKernel])
def test_kernel_generation_is_memoized(cls):
    cuda.clear_memo()
    with mock.patch.object(cls, '_generate', return_value=('a', 'b', 'c', 'd')) as m:
        assert cls.generate(3) == ('a', 'b', 'c', 'd')
        cls.generate(3)
        m.assert_called_once_with(3)
    cuda.clear_memo()


def _c_function(generated, out_name):
    # the kernel body is C: run it in a loop over the output index, as CUDA would
    in_params, _, operation, name = generated
    array = in_params.split(', ')[0].split()[-1]
    ints = [p.split()[-1] for p in in_params.split(', ')[1:]]
    return f'''
void {name}(long size, const T* {array}_, {', '.join('int ' + p for p in ints)}, T* out_) {{
  for (long k_ = 0; k_ < size; ++k_) {{
    int i = (int)k_;
    const T* {array} = {array}_;
    T {out_name};
    {operation}
    out_[k_] = {out_name};
  }}
}}'''


@pytest.fixture(scope='module')
def compiled_kernels(tmp_path_factory):
    if shutil.which('cc') is None:
        pytest.skip('needs a C compiler')
    parts = ['#include <stdbool.h>', 'typedef double T;']
    for ndim in (1, 2, 3):
        parts.append(_c_function(conv_nd_kernel.Im2colNDKernel._generate(ndim), 'col'))
        parts.append(_c_function(conv_nd_kernel.Col2imNDKernel._generate(ndim), 'img'))
    folder = tmp_path_factory.mktemp('kernels')
    (folder / 'kernels.c').write_text('\n'.join(parts))
    subprocess.run(['cc', '-shared', '-fPIC', '-o', str(folder / 'kernels.so'),
                    str(folder / 'kernels.c')], check=True)
    return ctypes.CDLL(str(folder / 'kernels.so'))


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_kernels_compute_im2col_and_col2im(compiled_kernels, ndim):
    im2col = getattr(compiled_kernels, f'im2col_{ndim}d')
    col2im = getattr(compiled_kernels, f'col2im_{ndim}d')
    rng = numpy.random.RandomState(ndim)
    dims, ksize = (5, 4, 3)[:ndim], (2, 3, 1)[:ndim]
    stride, pad, dilate = (2, 1, 1)[:ndim], (1, 2, 0)[:ndim], (1, 2, 1)[:ndim]
    outs = tuple(conv.get_conv_outsize(*a, d=d)
                 for a, d in zip(zip(dims, ksize, stride, pad), dilate))
    ints = [ctypes.c_int(v) for v in dims + outs + ksize + stride + pad + dilate]
    ptr = ctypes.POINTER(ctypes.c_double)
    img = rng.uniform(-1, 1, (2, 3) + dims)
    col = numpy.empty((2, 3) + ksize + outs)
    im2col(ctypes.c_long(col.size), img.ctypes.data_as(ptr), *ints, col.ctypes.data_as(ptr))
    numpy.testing.assert_array_equal(col, conv.im2col_nd(img, ksize, stride, pad,
                                                         dilate=dilate))
    c = rng.uniform(-1, 1, col.shape)
    out = numpy.empty_like(img)
    col2im(ctypes.c_long(out.size), c.ctypes.data_as(ptr), *ints, out.ctypes.data_as(ptr))
    numpy.testing.assert_allclose(out, conv.col2im_nd(c, stride, pad, dims, dilate))


@pytest.mark.gpu
def test_kernels_on_gpu():
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.RandomState(0)
    img = rng.uniform(-1, 1, (2, 3, 5, 4)).astype('f')
    col = conv_nd_kernel.im2col_nd_gpu_kernel(cupy.asarray(img), (3, 2), (2, 1), (1, 1),
                                              (3, 5), (1, 1))
    ref = conv.im2col_nd(img, (3, 2), (2, 1), (1, 1))
    numpy.testing.assert_array_equal(cupy.asnumpy(col), ref)
    back = conv_nd_kernel.col2im_nd_gpu_kernel(col, (2, 1), (1, 1), (5, 4), (1, 1))
    numpy.testing.assert_allclose(cupy.asnumpy(back), conv.col2im_nd(ref, (2, 1), (1, 1), (5, 4)),
                                  rtol=1e-5)


def test_v7_argument_orders():
    # only the CPU functions take pval positionally; elsewhere the 8th/5th is cover_all
    img = numpy.arange(25.0).reshape(1, 1, 5, 5)
    covered = (1, 1, 2, 2, 3, 3)
    assert conv.im2col(img, 2, 2, 2, 2, 0, 0, True).shape == covered
    assert conv.im2col_gpu(img, 2, 2, 2, 2, 0, 0, True).shape == covered
    assert conv.im2col_cpu(img, 2, 2, 2, 2, 0, 0, 7.0, True).shape == covered
    assert conv.im2col_cpu(img, 2, 2, 2, 2, 0, 0, 7.0, True)[0, 0, 1, 1, 2, 2] == 7.0
    assert conv_nd.im2col_nd(img, (2, 2), (2, 2), (0, 0), True).shape == covered
    assert conv_nd.im2col_nd_gpu(img, (2, 2), (2, 2), (0, 0), True).shape == covered
    assert conv_nd.im2col_nd_cpu(img, (2, 2), (2, 2), (0, 0), -1, True)[0, 0, 1, 1, 2, 2] == -1
    assert conv_nd.im2col_nd(img, 2, 2, 0, True, pval=-1)[0, 0, 1, 1, 2, 2] == -1
