"""Convolutions and transposed convolutions (1-d, 2-d, 3-d, N-d; groups, dilation,
cover_all, outsize) against direct NumPy references."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection import convolution_2d, deconvolution_nd
from chainer.utils.type_check import InvalidType


def _tuple(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def conv_ref(x, W, b=None, stride=1, pad=0, dilate=1, groups=1, cover_all=False):
    """Direct convolution: one einsum per kernel offset and group, in float64."""
    nd = x.ndim - 2
    s, p, d = _tuple(stride, nd), _tuple(pad, nd), _tuple(dilate, nd)
    k = W.shape[2:]
    out = []
    for n_, k_, s_, p_, d_ in zip(x.shape[2:], k, s, p, d):
        span = n_ + 2 * p_ - (k_ - 1) * d_ - 1
        out.append((span + (s_ - 1 if cover_all else 0)) // s_ + 1)
    widths = [(0, 0), (0, 0)]
    for n_, k_, s_, p_, d_, o_ in zip(x.shape[2:], k, s, p, d, out):
        widths.append((p_, max(p_, (o_ - 1) * s_ + (k_ - 1) * d_ + 1 - n_ - p_)))
    xp = numpy.pad(x.astype(numpy.float64), widths)
    n, c = x.shape[:2]
    o = W.shape[0]
    cg, og = c // groups, o // groups
    y = numpy.zeros((n, o) + tuple(out))
    for offs in itertools.product(*[range(v) for v in k]):
        idx = tuple(slice(i * d_, i * d_ + s_ * (o_ - 1) + 1, s_)
                    for i, d_, s_, o_ in zip(offs, d, s, out))
        patch = xp[(slice(None), slice(None)) + idx]
        for g in range(groups):
            w = W[(slice(g * og, (g + 1) * og), slice(None)) + offs].astype(numpy.float64)
            y[:, g * og:(g + 1) * og] += numpy.einsum(
                'nc...,oc->no...', patch[:, g * cg:(g + 1) * cg], w)
    if b is not None:
        y += b.reshape((1, o) + (1,) * nd)
    return y


def deconv_ref(x, W, b=None, stride=1, pad=0, dilate=1, groups=1, outsize=None):
    """Direct transposed convolution: every input pixel scatters W times itself."""
    nd = x.ndim - 2
    s, p, d = _tuple(stride, nd), _tuple(pad, nd), _tuple(dilate, nd)
    k = W.shape[2:]
    if outsize is None:
        outsize = tuple(s_ * (n_ - 1) + (k_ - 1) * d_ + 1 - 2 * p_
                        for n_, k_, s_, p_, d_ in zip(x.shape[2:], k, s, p, d))
    full = tuple(max(s_ * (n_ - 1) + (k_ - 1) * d_ + 1, p_ + o_)
                 for n_, k_, s_, p_, d_, o_ in zip(x.shape[2:], k, s, p, d, outsize))
    n, c = x.shape[:2]
    og = W.shape[1]
    cg = c // groups
    y = numpy.zeros((n, og * groups) + full)
    for offs in itertools.product(*[range(v) for v in k]):
        idx = tuple(slice(i * d_, i * d_ + s_ * (n_ - 1) + 1, s_)
                    for i, d_, s_, n_ in zip(offs, d, s, x.shape[2:]))
        for g in range(groups):
            w = W[(slice(g * cg, (g + 1) * cg), slice(None)) + offs].astype(numpy.float64)
            y[(slice(None), slice(g * og, (g + 1) * og)) + idx] += numpy.einsum(
                'nc...,co->no...', x[:, g * cg:(g + 1) * cg].astype(numpy.float64), w)
    y = y[(slice(None), slice(None)) + tuple(slice(p_, p_ + o_) for p_, o_ in zip(p, outsize))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


_FP16_OPTIONS = {'atol': 5e-2, 'rtol': 5e-2}

_CONV_CASES = [
    # groups, stride, cover_all (with an odd width so that it adds a column)
    dict(x=(2, 4, 5, 4), W=(6, 2, 3, 3), stride=2, pad=1, groups=2, cover_all=True),
    # unit stride (the wide layout) with dilation and a rectangular kernel
    dict(x=(2, 3, 6, 5), W=(4, 3, 3, 2), pad=(2, 1), dilate=(2, 1)),
    # 1x1 kernel (no patches at all)
    dict(x=(2, 3, 4, 3), W=(5, 3, 1, 1)),
    # stride larger than the kernel, padding larger than the kernel
    dict(x=(2, 2, 5, 5), W=(3, 2, 2, 2), stride=3),
    dict(x=(1, 2, 3, 3), W=(2, 2, 2, 2), pad=3, nobias=True),
    # 1-d and 3-d
    dict(x=(2, 3, 7), W=(4, 3, 3), stride=2, pad=1, dilate=2),
    dict(x=(1, 2, 4, 3, 3), W=(4, 1, 2, 2, 2), pad=1, groups=2),
]


@testing.parameterize(*testing.product_dict(
    _CONV_CASES,
    [{'x_dtype': numpy.float32, 'W_dtype': numpy.float32, 'contiguous': None},
     {'x_dtype': numpy.float64, 'W_dtype': numpy.float64, 'contiguous': 'C'}],
) + [dict(_CONV_CASES[0], x_dtype=numpy.float16, W_dtype=numpy.float32, contiguous=None),
     dict(_CONV_CASES[1], x_dtype=numpy.float32, W_dtype=numpy.float16, contiguous=None),
     dict(_CONV_CASES[2], x_dtype=numpy.float16, W_dtype=numpy.float16, contiguous=None)])
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolution(testing.FunctionTestCase):

    def setUp(self):
        self.nobias = getattr(self, 'nobias', False)
        self.options = {k: getattr(self, k) for k in
                        ('stride', 'pad', 'dilate', 'groups', 'cover_all') if hasattr(self, k)}
        if numpy.float16 in (self.x_dtype, self.W_dtype):
            self.check_forward_options = dict(_FP16_OPTIONS)
            self.check_backward_options = dict(_FP16_OPTIONS)
            self.check_double_backward_options = dict(_FP16_OPTIONS)
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, self.W).astype(self.W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, self.W[0]).astype(self.x_dtype)

    def forward(self, inputs, device):
        if len(self.x) == 4:
            opts = dict(self.options)
            dilate = opts.pop('dilate', 1)
            groups = opts.pop('groups', 1)
            y = F.convolution_2d(*inputs, **opts, dilate=dilate, groups=groups)
        else:
            y = F.convolution_nd(*inputs, **self.options)
        assert y.dtype == inputs[0].dtype
        return y,

    def forward_expected(self, inputs):
        return conv_ref(*inputs, **self.options).astype(self.x_dtype),


_DECONV_CASES = [
    dict(x=(2, 4, 3, 2), W=(4, 1, 3, 3), stride=2, pad=1, groups=2),
    dict(x=(2, 3, 3, 4), W=(3, 2, 3, 2), pad=(2, 0), dilate=(2, 1)),
    # an outsize that the convolution reaches only with cover_all
    dict(x=(1, 2, 3, 3), W=(2, 3, 3, 3), stride=2, outsize=(8, 7)),
    dict(x=(2, 3, 4), W=(3, 2, 2), stride=3, pad=1, nobias=True),
    dict(x=(1, 2, 2, 3, 2), W=(2, 2, 2, 2, 2), stride=2, dilate=(1, 2, 1)),
    dict(x=(2, 2, 3, 3), W=(2, 3, 1, 1)),
]


@testing.parameterize(*testing.product_dict(
    _DECONV_CASES,
    [{'x_dtype': numpy.float32, 'W_dtype': numpy.float32, 'contiguous': None},
     {'x_dtype': numpy.float64, 'W_dtype': numpy.float64, 'contiguous': 'C'}],
) + [dict(_DECONV_CASES[0], x_dtype=numpy.float16, W_dtype=numpy.float64, contiguous=None)])
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeconvolution(testing.FunctionTestCase):

    def setUp(self):
        self.nobias = getattr(self, 'nobias', False)
        self.options = {k: getattr(self, k) for k in
                        ('stride', 'pad', 'dilate', 'groups', 'outsize') if hasattr(self, k)}
        if numpy.float16 in (self.x_dtype, self.W_dtype):
            self.check_forward_options = dict(_FP16_OPTIONS)
            self.check_backward_options = dict(_FP16_OPTIONS)
            self.check_double_backward_options = dict(_FP16_OPTIONS)
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, self.W).astype(self.W_dtype)
        if self.nobias:
            return x, W
        groups = self.options.get('groups', 1)
        return x, W, numpy.random.uniform(-1, 1, self.W[1] * groups).astype(self.x_dtype)

    def forward(self, inputs, device):
        if len(self.x) == 4:
            opts = dict(self.options)
            dilate = opts.pop('dilate', 1)
            groups = opts.pop('groups', 1)
            y = F.deconvolution_2d(*inputs, **opts, dilate=dilate, groups=groups)
        else:
            y = F.deconvolution_nd(*inputs, **self.options)
        assert y.dtype == inputs[0].dtype
        return y,

    def forward_expected(self, inputs):
        return deconv_ref(*inputs, **self.options).astype(self.x_dtype),


def _u(*shape, dtype=numpy.float32):
    return numpy.random.RandomState(len(shape) + sum(shape)).uniform(-1, 1, shape).astype(dtype)


def test_wrappers_and_dilated_match_nd():
    x, W, b = _u(2, 3, 6, 5), _u(4, 3, 3, 3), _u(4)
    y = F.dilated_convolution_2d(x, W, b, stride=1, pad=2, dilate=2, cover_all=True)
    numpy.testing.assert_allclose(
        y.array, conv_ref(x, W, b, 1, 2, 2, cover_all=True), rtol=1e-5, atol=1e-5)
    for ndim, conv, deconv in ((1, F.convolution_1d, F.deconvolution_1d),
                               (3, F.convolution_3d, F.deconvolution_3d)):
        x, W = _u(2, 3, *(4,) * ndim), _u(3, 2, *(2,) * ndim)
        numpy.testing.assert_array_equal(conv(x, W[:, :1].repeat(3, 1)).array,
                                         F.convolution_nd(x, W[:, :1].repeat(3, 1)).array)
        numpy.testing.assert_array_equal(deconv(x, W).array, F.deconvolution_nd(x, W).array)
        with pytest.raises(ValueError, match="input 'x'"):
            conv(_u(2, 3, 4, 4), _u(2, 3, 2, 2))
        with pytest.raises(ValueError, match="input 'x'"):
            deconv(_u(2, 3, 4, 4), _u(3, 2, 2, 2))


def test_node_attributes():
    f = convolution_2d.Convolution2DFunction((2, 3), 1, True, dilate=(1, 2), groups=2)
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx, f.cover_all, f.groups) == (
        2, 3, 1, 1, 1, 2, True, 2)
    d = F.connection.deconvolution_2d.Deconvolution2DFunction(2, 0, (5, 6))
    assert (d.sy, d.outh, d.outw) == (2, 5, 6)
    assert F.connection.dilated_convolution_2d.DilatedConvolution2DFunction(1, 0, 3).dy == 3


def test_cover_all_output_size():
    x = _u(1, 1, 5, 5)
    assert F.convolution_2d(x, _u(1, 1, 2, 2), stride=2).shape == (1, 1, 2, 2)
    assert F.convolution_2d(x, _u(1, 1, 2, 2), stride=2, cover_all=True).shape == (1, 1, 3, 3)


def test_empty_batch():
    x, W, b = _u(0, 2, 4, 4), _u(3, 2, 3, 3), _u(3)
    xv, Wv, bv = chainer.Variable(x), chainer.Variable(W), chainer.Variable(b)
    y = F.convolution_2d(xv, Wv, bv, pad=1)
    assert y.shape == (0, 3, 4, 4)
    F.sum(y).backward()
    assert xv.grad.shape == x.shape
    numpy.testing.assert_array_equal(Wv.grad, numpy.zeros_like(W))
    numpy.testing.assert_array_equal(bv.grad, numpy.zeros_like(b))
    assert F.deconvolution_2d(_u(0, 3, 2, 2), W).shape == (0, 2, 4, 4)


def test_first_and_double_backward_paths_agree():
    # enable_double_backprop builds gradient nodes; plain backward skips them
    x, W, b = _u(2, 4, 5, 5, dtype=numpy.float64), _u(6, 2, 3, 3, dtype=numpy.float64), _u(6)
    grads = []
    for double in (False, True):
        vs = [chainer.Variable(a) for a in (x, W, b.astype(numpy.float64))]
        y = F.convolution_2d(*vs, stride=2, pad=1, groups=2)
        y.grad = numpy.ones_like(y.array)
        y.backward(enable_double_backprop=double)
        grads.append([v.grad for v in vs])
    for a, b_ in zip(*grads):
        numpy.testing.assert_allclose(a, b_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('needs', [(True, False, True), (False, True, False)])
@pytest.mark.parametrize('fn, w_shape', [(F.convolution_2d, (2, 3, 3, 3)),
                                         (F.deconvolution_2d, (3, 2, 3, 3))])
def test_partial_gradients(needs, fn, w_shape):
    vs = [chainer.Variable(a, requires_grad=r)
          for a, r in zip((_u(3, 3, 6, 6), _u(*w_shape), _u(2)), needs)]
    F.sum(fn(*vs, stride=2)).backward()
    for v, r in zip(vs, needs):
        assert (v.grad is not None) == r


def test_noncontiguous_grad_output():
    # F.sum's backward broadcasts: the gradient reaching the convolution is not contiguous
    w = chainer.Variable(_u(1, 3, 3, 3))
    F.sum(F.convolution_2d(_u(2, 3, 6, 6), w)).backward()
    numpy.testing.assert_allclose(
        w.grad, conv_ref(_u(2, 3, 6, 6).transpose(1, 0, 2, 3),
                         numpy.ones((1, 2, 4, 4), 'f')).transpose(1, 0, 2, 3), rtol=1e-5)


def test_bad_arguments():
    x, W = _u(2, 4, 5, 5), _u(6, 2, 3, 3)
    with pytest.raises(InvalidType, match='Convolution2DFunction'):
        F.convolution_2d(x, W)  # 4 channels, W expects 2 (groups=1)
    with pytest.raises(InvalidType):
        F.convolution_2d(x, _u(5, 2, 3, 3), groups=2)  # 5 filters in 2 groups
    with pytest.raises(InvalidType):
        F.convolution_2d(x, W, _u(5), groups=2)  # bias size
    with pytest.raises(InvalidType):
        F.convolution_2d(x.astype('i'), W, groups=2)
    with pytest.raises(ValueError, match='larger than the input'):
        F.convolution_2d(_u(1, 1, 3, 3), _u(1, 1, 5, 5))
    F.convolution_2d(_u(1, 1, 3, 3), _u(1, 1, 5, 5), pad=1)  # fits once padded
    with pytest.raises(ValueError, match='dilate'):
        F.convolution_2d(x, W, dilate=0, groups=2)
    with pytest.raises(ValueError, match='stride'):
        F.convolution_nd(x, W, stride=(1, 0), groups=2)
    with pytest.raises(ValueError, match='stride'):
        F.convolution_nd(x, W, stride=(1, 1, 1), groups=2)
    with pytest.raises(ValueError, match='pad'):
        F.convolution_2d(x, W, pad=-1, groups=2)
    with pytest.raises(ValueError, match='groups'):
        F.convolution_2d(x, W, groups=0)
    with pytest.raises(ValueError, match='deterministic'):
        F.convolution_2d(x, W, deterministic=True)
    with pytest.raises(TypeError):
        F.convolution_2d(x, W, unknown=1)


@pytest.mark.parametrize('ndim', [1, 2, 3])
@pytest.mark.parametrize('dtypes', [('f', 'f', 'd'), ('d', 'f', 'e'), ('e', 'd', 'f')])
@pytest.mark.parametrize('transposed', [False, True])
def test_bias_of_another_float_dtype(ndim, dtypes, transposed):
    # v7 takes a bias of any float dtype: added in x's dtype, its gradient in its own
    x_dt, w_dt, b_dt = (numpy.dtype(d) for d in dtypes)
    rng = numpy.random.default_rng(ndim)
    x = rng.uniform(-1, 1, (2, 3) + (5,) * ndim).astype(x_dt)
    W = rng.uniform(-1, 1, ((3, 4) if transposed else (4, 3)) + (3,) * ndim).astype(w_dt)
    b = rng.uniform(-1, 1, 4).astype(b_dt)
    fn = F.deconvolution_nd if transposed else F.convolution_nd
    xv, Wv, bv = chainer.Variable(x), chainer.Variable(W), chainer.Variable(b)
    y = fn(xv, Wv, bv, pad=1)
    expected = fn(x.astype('d'), W.astype('d'), pad=1).array + b.astype('d')[
        (slice(None),) + (None,) * ndim]
    tol = 5e-2 if 'e' in dtypes else 1e-5
    assert y.dtype == x_dt
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)
    F.sum(y).backward()
    assert (xv.grad.dtype, Wv.grad.dtype, bv.grad.dtype) == (x_dt, w_dt, b_dt)
    numpy.testing.assert_allclose(bv.grad, numpy.full(4, y[0, 0].size * 2.0), rtol=tol)


def test_2d_functions_keep_v7s_bias_of_x_dtype():
    # v7's convolution_2d and deconvolution_2d asked for a bias of x's dtype (their _nd
    # forms did not)
    x, b = _u(1, 3, 5, 5), numpy.zeros(4, 'd')
    with pytest.raises(InvalidType, match=r'in_types\[2\]\.dtype == in_types\[0\]\.dtype'):
        F.convolution_2d(x, _u(4, 3, 3, 3), b)
    with pytest.raises(InvalidType, match=r'in_types\[2\]\.dtype == in_types\[0\]\.dtype'):
        F.deconvolution_2d(x, _u(3, 4, 3, 3), b)
    F.convolution_nd(x, _u(4, 3, 3, 3), b)
    F.deconvolution_nd(x, _u(3, 4, 3, 3), b)


def test_integer_bias_is_refused():
    x, W = _u(2, 3, 4), _u(4, 3, 2)
    with pytest.raises(InvalidType, match='kind'):
        F.convolution_nd(x, W, numpy.zeros(4, 'i'))
    with pytest.raises(InvalidType, match='kind'):
        F.deconvolution_nd(x, _u(3, 4, 2), numpy.zeros(4, 'i'))


def test_bad_deconvolution_arguments():
    x, W = _u(2, 3, 4), _u(3, 2, 2)
    with pytest.raises(InvalidType):
        F.deconvolution_nd(x, W, outsize=(10,))  # no convolution of 10 gives 4
    with pytest.raises(InvalidType):
        F.deconvolution_nd(x, _u(2, 2, 2))  # channels
    with pytest.raises(InvalidType):
        F.deconvolution_nd(x, W, _u(2, 2))  # bias rank
    with pytest.raises(InvalidType):
        deconvolution_nd.DeconvolutionND(1).apply((x,))
    # the estimated output size is not positive: a ValueError, and v7's AssertionError
    with pytest.raises(ValueError, match='not positive'):
        F.deconvolution_nd(x, W, pad=10)
    with pytest.raises(AssertionError):
        F.deconvolution_nd(x, W, pad=10)
    with pytest.raises(ValueError, match='dilate'):
        F.deconvolution_2d(_u(1, 3, 2, 2), _u(3, 2, 2, 2), dilate=0)


@pytest.mark.parametrize('shape', [(4, 3, 5, 6), (0, 3, 4, 4), (2, 3), (2, 2, 3, 3, 3)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_bias_grad_sums_all_axes_but_the_channels(shape, dtype):
    from chainer.functions.connection._conv_core import bias_grad

    gy = numpy.random.RandomState(1).uniform(-1, 1, shape).astype(dtype)
    axes = (0,) + tuple(range(2, len(shape)))
    for g in (gy, numpy.asfortranarray(gy)):
        out = bias_grad(g, dtype)
        assert out.dtype == dtype and out.shape == (shape[1],)
        numpy.testing.assert_allclose(out, gy.astype('d').sum(axis=axes),
                                      rtol=1e-2 if dtype == numpy.float16 else 1e-5,
                                      atol=1e-2 if dtype == numpy.float16 else 1e-5)
