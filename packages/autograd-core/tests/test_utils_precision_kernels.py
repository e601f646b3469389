"""chainer.utils.precision, chainer.utils.conv_nd_kernel, chainer.utils.error and aliases."""

import collections.abc
import shutil
import subprocess
import unittest.mock

import numpy
import pytest

import chainer
from chainer import FunctionNode, utils
from chainer.backends import cuda
from chainer.testing import attr
from chainer.utils import conv, conv_nd_kernel, precision


class _Record(FunctionNode):
    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = inputs
        return tuple(x * 2 if x.dtype.kind == 'f' else x for x in inputs)


def test_mixed_precision_computes_half_in_single():
    h = numpy.array([1.5, 2.0], numpy.float16)
    i = numpy.array([1, 2], numpy.int8)
    f = _Record()
    y, j = f.apply((h, i))
    assert f.seen[0].dtype == numpy.float32 and f.seen[1] is i
    assert y.dtype == numpy.float16 and j.dtype == numpy.int8
    numpy.testing.assert_array_equal(y.array, [3, 4])


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_mixed_precision_leaves_other_dtypes(dtype):
    x = numpy.ones(3, dtype)
    f = _Record()
    (y,) = f.apply((x,))
    assert f.seen[0] is x and y.dtype == dtype


def test_collections_abc_and_error_classes():
    assert utils.collections_abc is collections.abc
    assert issubclass(utils.error.ArgumentValueError, ValueError)
    assert issubclass(utils.error.ArgumentValueError, AssertionError)
    assert issubclass(utils.error.ArgumentTypeError, TypeError)


@pytest.mark.parametrize('kernel', [conv_nd_kernel.Im2colNDKernel,
                                    conv_nd_kernel.Col2imNDKernel])
def test_kernel_sources_are_built_once_per_ndim(kernel):
    cuda.clear_memo()
    with unittest.mock.patch.object(kernel, '_generate', return_value=('a', 'b', 'c', 'd')) as m:
        assert kernel.generate(3) == ('a', 'b', 'c', 'd')
        kernel.generate(3)
        m.assert_called_once_with(3)
    cuda.clear_memo()
    in_params, out_params, operation, name = kernel.generate(2)
    assert in_params.startswith('raw T ') and 'int32 di_1' in in_params
    assert out_params in ('T col', 'T img') and name.endswith('_2d') and operation
    with pytest.raises(ValueError, match='ndim'):
        kernel()._generate(0)


_CASES = [((7,), (3,), (2,), (1,), (1,)), ((5, 6), (2, 3), (1, 2), (1, 0), (2, 1)),
          ((4, 3, 5), (2, 1, 3), (2, 1, 1), (0, 1, 2), (1, 1, 2))]


def _run_on_host(tmp_path, kernel, ndim, source, lengths, out_size):
    """Run a kernel's operation for every output index in a C++ harness."""
    in_params, out_params, operation, _ = kernel.generate(ndim)
    raw = in_params.split(',')[0].split()[-1]
    out = out_params.split()[-1]
    names = [p.split()[-1] for p in in_params.split(',')[1:]]
    decls = '\n'.join(f'  int {n} = {v};' for n, v in zip(names, lengths))
    values = ', '.join(repr(v) for v in source.ravel().tolist())
    (tmp_path / 'k.cpp').write_text(f'''#include <cstdio>
typedef double T;
static const T {raw}[] = {{{values}}};
static T result[{out_size}];
int main() {{
{decls}
  for (int i = 0; i < {out_size}; ++i) {{
    T &{out} = result[i];
{operation}
  }}
  for (int q = 0; q < {out_size}; ++q) std::printf("%.17g\\n", result[q]);
}}
''')
    subprocess.run(['g++', '-o', str(tmp_path / 'k'), str(tmp_path / 'k.cpp')], check=True)
    text = subprocess.run([str(tmp_path / 'k')], check=True, capture_output=True,
                          text=True).stdout
    return numpy.array([float(v) for v in text.split()])


@pytest.mark.skipif(shutil.which('g++') is None, reason='needs a C++ compiler')
@pytest.mark.parametrize('dims, ksize, stride, pad, dilate', _CASES)
def test_kernel_sources_compute_im2col_and_col2im(tmp_path, dims, ksize, stride, pad, dilate):
    # The CUDA operations are plain C++: run them on the host against conv.im2col_nd/col2im_nd.
    img = numpy.random.standard_normal((2, 3) + dims)
    col = numpy.ascontiguousarray(conv.im2col_nd(img, ksize, stride, pad, dilate=dilate))
    lengths = dims + col.shape[2 + len(dims):] + ksize + stride + pad + dilate
    got = _run_on_host(tmp_path, conv_nd_kernel.Im2colNDKernel, len(dims), img, lengths,
                       col.size)
    numpy.testing.assert_allclose(got, col.ravel(), rtol=1e-12)
    gcol = numpy.random.standard_normal(col.shape)
    expected = conv.col2im_nd(gcol, stride, pad, dims, dilate=dilate)
    got = _run_on_host(tmp_path, conv_nd_kernel.Col2imNDKernel, len(dims), gcol, lengths,
                       expected.size)
    numpy.testing.assert_allclose(got, numpy.ravel(expected), rtol=1e-12)


@attr.gpu
@pytest.mark.parametrize('dims, ksize, stride, pad, dilate', _CASES)
def test_kernels_on_gpu(dims, ksize, stride, pad, dilate):
    cupy = cuda.cupy
    img = numpy.random.standard_normal((2, 3) + dims).astype(numpy.float32)
    expected = conv.im2col_nd(img, ksize, stride, pad, dilate=dilate)
    outs = expected.shape[2 + len(dims):]
    col = cupy.empty(expected.shape, numpy.float32)
    cuda.elementwise(*conv_nd_kernel.Im2colNDKernel.generate(len(dims)))(
        cupy.asarray(img), *dims, *outs, *ksize, *stride, *pad, *dilate, col)
    numpy.testing.assert_allclose(col.get(), expected, rtol=1e-6)
    gcol = numpy.random.standard_normal(expected.shape).astype(numpy.float32)
    back = cupy.empty(img.shape, numpy.float32)
    cuda.elementwise(*conv_nd_kernel.Col2imNDKernel.generate(len(dims)))(
        cupy.asarray(gcol), *dims, *outs, *ksize, *stride, *pad, *dilate, back)
    numpy.testing.assert_allclose(back.get(), conv.col2im_nd(gcol, stride, pad, dims, dilate),
                                  rtol=1e-5, atol=1e-5)


def test_chainer_utils_collections_abc_iterable():
    assert isinstance([1], chainer.utils.collections_abc.Iterable)
