"""Convolution links: forward against NumPy, backward, lazy sizes, attributes, bad input."""

import numpy
import pytest
from _refs import check_file_round_trips, check_link_contract, conv_ref, deconv_ref

import chainer
import chainer.links as L
from chainer import testing
from chainer.utils import type_check

BACKENDS = [{}, {'use_cuda': True}]


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@testing.parameterize(*testing.product({
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
    'groups': [1, 2],
    'lazy': [False, True],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestConvolution2D(testing.LinkTestCase):
    param_names = ('W', 'b')
    skip_double_backward_test = True

    def setUp(self):
        if self.x_dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return (chainer.initializers.Normal(1, self.x_dtype),
                chainer.initializers.Normal(1, self.x_dtype))

    def create_link(self, initializers):
        W, b = initializers
        return L.Convolution2D(None if self.lazy else 4, 6, 3, stride=2, pad=1,
                               groups=self.groups, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return _uniform(2, 4, 5, 4, dtype=self.x_dtype),

    def forward_expected(self, link, inputs):
        y = conv_ref(inputs[0], link.W.array, link.b.array, 2, 1, groups=self.groups)
        return y.astype(self.x_dtype),


@testing.parameterize(*testing.product({
    'ndim': [1, 3],
    'cover_all': [False, True],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestConvolutionND(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.ConvolutionND(self.ndim, 3, 2, 2, stride=2, pad=0, initialW=W,
                               initial_bias=b, cover_all=self.cover_all)

    def generate_inputs(self):
        return _uniform(2, 3, *((5,) * self.ndim)),

    def forward_expected(self, link, inputs):
        x = inputs[0]
        if self.cover_all:  # one more output position: pad the far side by one
            x = numpy.pad(x, [(0, 0), (0, 0)] + [(0, 1)] * self.ndim)
        return conv_ref(x, link.W.array, link.b.array, 2).astype(numpy.float32),


@testing.parameterize(*testing.product({
    'nobias': [False, True],
    'groups': [1, 3],
    'outsize': [None, (8, 6)],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestDeconvolution2D(testing.LinkTestCase):
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    skip_double_backward_test = True

    @property
    def param_names(self):
        return ('W',) if self.nobias else ('W', 'b')

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.Deconvolution2D(3, 6, 3, stride=2, pad=1, nobias=self.nobias,
                                 outsize=self.outsize, initialW=W, initial_bias=b,
                                 groups=self.groups)

    def generate_inputs(self):
        return _uniform(2, 3, 4, 3),

    def forward_expected(self, link, inputs):
        b = None if self.nobias else link.b.array
        y = deconv_ref(inputs[0], link.W.array, b, 2, 1, self.outsize, groups=self.groups)
        return y.astype(numpy.float32),


@testing.parameterize(*testing.product({'ndim': [1, 2, 3], 'dilate': [1, 2]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestDeconvolutionND(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    skip_double_backward_test = True

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.DeconvolutionND(self.ndim, None, 2, 2, stride=2, initialW=W,
                                 initial_bias=b, dilate=self.dilate)

    def generate_inputs(self):
        return _uniform(2, 3, *((3,) * self.ndim)),

    def forward_expected(self, link, inputs):
        y = deconv_ref(inputs[0], link.W.array, link.b.array, 2, dilate=self.dilate)
        return y.astype(numpy.float32),


@testing.inject_backend_tests(None, BACKENDS)
class TestDepthwiseConvolution2D(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    skip_double_backward_test = True

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.DepthwiseConvolution2D(None, 2, 3, stride=2, pad=1, initialW=W,
                                        initial_bias=b)

    def generate_inputs(self):
        return _uniform(2, 3, 5, 4),

    def forward_expected(self, link, inputs):
        W = link.W.array  # (multiplier, in, kh, kw): output channel c * m + j
        filters = W.transpose(1, 0, 2, 3).reshape(-1, 1, 3, 3)
        return conv_ref(inputs[0], filters, link.b.array, 2, 1, groups=3).astype('f'),


@testing.inject_backend_tests(None, BACKENDS)
class TestDilatedConvolution2D(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    skip_double_backward_test = True

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.DilatedConvolution2D(2, 3, stride=1, pad=2, dilate=2, initialW=W,
                                      initial_bias=b)

    def generate_inputs(self):
        return _uniform(2, 3, 5, 4),

    def forward_expected(self, link, inputs):
        return conv_ref(inputs[0], link.W.array, link.b.array, 1, 2, 2).astype('f'),


@testing.inject_backend_tests(None, BACKENDS)
class TestLocalConvolution2D(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    skip_double_backward_test = True

    def generate_params(self):
        return chainer.initializers.Normal(1), chainer.initializers.Normal(1)

    def create_link(self, initializers):
        W, b = initializers
        return L.LocalConvolution2D(None, 2, ksize=2, stride=2, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return _uniform(2, 3, 5, 4),

    def forward_expected(self, link, inputs):
        x = inputs[0].astype('d')
        W, b = link.W.array, link.b.array  # (o, oh, ow, c, kh, kw), (o, oh, ow)
        y = numpy.zeros((2,) + b.shape)
        for i in range(b.shape[1]):
            for j in range(b.shape[2]):
                patch = x[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
                y[:, :, i, j] = numpy.einsum('nckl,ockl->no', patch, W[:, i, j])
        return (y + b).astype('f'),


def test_convolution_2d_attributes_lazy_and_shorthand():
    link = L.Convolution2D(2, 3, stride=2, pad=1)  # (out_channels, ksize)
    assert link.in_channels is None and link.out_channels == 2 and link.ksize == 3
    assert link.stride == (2, 2) and link.pad == (1, 1) and link.dilate == (1, 1)
    assert link.W.array is None and link.b.shape == (2,)
    y = link(_uniform(1, 5, 6, 6))
    assert link.W.shape == (2, 5, 3, 3) and y.shape == (1, 2, 3, 3)
    assert str(link).startswith('Convolution2D(in_channels=None, out_channels=2, ksize=3')


def test_convolution_2d_from_params_copies():
    src = L.Convolution2D(4, 6, (3, 2), groups=2)
    link = L.Convolution2D.from_params(src.W, src.b, stride=2, groups=2)
    assert link.W.shape == (6, 2, 3, 2) and link.stride == (2, 2) and link.groups == 2
    numpy.testing.assert_array_equal(link.W.array, src.W.array)
    assert link.W.array is not src.W.array
    with pytest.raises(ValueError, match='4-dimensional'):
        L.Convolution2D.from_params(numpy.zeros((2, 3, 3), 'f'))
    with pytest.raises(ValueError, match='size of b'):
        L.Convolution2D.from_params(src.W, numpy.zeros(5, 'f'))


def test_convolution_nd_from_params_and_wrappers():
    link = L.ConvolutionND.from_params(numpy.ones((2, 3, 2, 2, 2), 'f'), stride=2)
    assert isinstance(link, L.ConvolutionND) and link.ksize == (2, 2, 2)
    c3 = L.Convolution3D.from_params(numpy.ones((2, 3, 2, 2, 2), 'f'))
    assert type(c3) is L.Convolution3D
    with pytest.raises(ValueError, match='Convolution1D'):
        L.Convolution1D.from_params(numpy.ones((2, 3, 2, 2), 'f'))
    x = _uniform(2, 3, 6)
    a = L.ConvolutionND(1, 3, 2, 2, initialW=1)
    b = L.Convolution1D(3, 2, 2, initialW=1)
    numpy.testing.assert_array_equal(a(x).array, b(x).array)
    assert L.DeconvolutionND(3, 3, 2, 2).W.shape == L.Deconvolution3D(3, 2, 2).W.shape


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match='divisible'):
        L.Convolution2D(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match='divisible'):
        L.Convolution2D(3, 4, 3, groups=2)
    lazy = L.ConvolutionND(2, None, 4, 3, groups=2)
    with pytest.raises(ValueError, match='divisible'):
        lazy(_uniform(1, 3, 5, 5))
    with pytest.raises(ValueError, match='divisible'):
        L.Deconvolution2D(3, 4, 3, groups=2)


def test_removed_and_unknown_keywords():
    with pytest.raises(ValueError, match='deterministic'):
        L.Convolution2D(3, 4, 3, deterministic=True)
    with pytest.raises(TypeError, match='foo'):
        L.Deconvolution2D(3, 4, 3, foo=1)


@pytest.mark.parametrize('make,x,bad', [
    (lambda: L.Convolution2D(None, 2, 3), (1, 3, 5, 5), (1, 4, 5, 5)),
    (lambda: L.ConvolutionND(1, None, 2, 3), (1, 3, 5), (1, 2, 5)),
    (lambda: L.Deconvolution2D(None, 2, 3), (1, 3, 4, 4), (1, 5, 4, 4)),
    (lambda: L.DeconvolutionND(1, None, 2, 3), (1, 3, 4), (1, 5, 4)),
    (lambda: L.DepthwiseConvolution2D(None, 2, 3), (1, 3, 5, 5), (1, 4, 5, 5)),
    (lambda: L.DilatedConvolution2D(None, 2, 3), (1, 3, 5, 5), (1, 4, 5, 5)),
    (lambda: L.LocalConvolution2D(None, 2, ksize=2), (1, 3, 4, 4), (1, 3, 5, 5)),
])
def test_wrong_input_after_the_lazy_size_is_fixed(make, x, bad):
    link = make()
    link(_uniform(*x))
    with pytest.raises(type_check.InvalidType):
        link(_uniform(*bad))


@pytest.mark.parametrize('make,shape', [
    (lambda: L.Convolution2D(None, 4, 3, pad=1, groups=2), (2, 4, 5, 5)),
    (lambda: L.Convolution1D(None, 2, 3), (2, 3, 6)),
    (lambda: L.Convolution3D(3, 2, 2), (2, 3, 3, 3, 3)),
    (lambda: L.Deconvolution2D(None, 4, 3, stride=2, outsize=(9, 9)), (2, 3, 4, 4)),
    (lambda: L.Deconvolution1D(3, 2, 3), (2, 3, 4)),
    (lambda: L.Deconvolution3D(None, 2, 2), (2, 3, 2, 2, 2)),
    (lambda: L.DepthwiseConvolution2D(None, 2, 3), (2, 3, 5, 5)),
    (lambda: L.DilatedConvolution2D(None, 2, 3, dilate=2), (2, 3, 6, 6)),
    (lambda: L.LocalConvolution2D(None, 2, ksize=2), (2, 3, 4, 4)),
    (lambda: L.DeformableConvolution2D(None, 2, 3, pad=1), (2, 3, 4, 4)),
    (lambda: L.MLPConvolution2D(None, (3, 2), 3), (2, 3, 5, 5)),
    (lambda: L.Inception(None, 2, 2, 3, 2, 3, 2), (2, 3, 5, 5)),
])
def test_contract(make, shape, tmp_path):
    x = _uniform(*shape)
    check_link_contract(make, (x,))
    check_file_round_trips(make, (x,), tmp_path)


def test_deformable_with_zero_offsets_is_a_convolution():
    link = L.DeformableConvolution2D(3, 2, 3, pad=1, offset_initialW=0, offset_initial_bias=0,
                                     deform_initialW=chainer.initializers.Normal(1))
    assert set(n for n, _ in link.namedparams()) == {
        '/offset_conv/W', '/offset_conv/b', '/deform_conv/W', '/deform_conv/b'}
    assert link.offset_conv.out_channels == 18
    x = _uniform(2, 3, 5, 5)
    y = link(x)
    numpy.testing.assert_allclose(
        y.array, conv_ref(x, link.deform_conv.W.array, link.deform_conv.b.array, 1, 1),
        rtol=1e-5, atol=1e-5)
    assert not L.DeformableConvolution2D(3, 2, 3).deform_conv.W.array.any()  # v7: zero


def test_mlp_convolution_2d_layers_and_activation():
    seen = []

    def act(h):
        seen.append(h.shape)
        return chainer.functions.tanh(h)

    link = L.MLPConvolution2D(3, (4, 5, 2), 3, pad=1, activation=act)
    assert len(link) == 3 and [c.W.shape for c in link] == [
        (4, 3, 3, 3), (5, 4, 1, 1), (2, 5, 1, 1)]
    x = _uniform(1, 3, 4, 4)
    y = link(x)
    assert seen == [(1, 4, 4, 4), (1, 5, 4, 4)]
    h = numpy.tanh(conv_ref(x, link[0].W.array, link[0].b.array, 1, 1))
    h = numpy.tanh(conv_ref(h, link[1].W.array, link[1].b.array))
    numpy.testing.assert_allclose(y.array, conv_ref(h, link[2].W.array, link[2].b.array),
                                  rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(3, (4,), 3, wscale=1)
    with pytest.raises(TypeError, match='wscale'):
        L.MLPConvolution2D(3, (4,), 3, 1, 0, act, 1)
    with pytest.raises(ValueError, match='non-empty'):
        L.MLPConvolution2D(3, (), 3)


def test_inception_branches():
    pytest.importorskip('chainer.functions.pooling.max_pooling_2d')
    link = L.Inception(3, 2, 2, 3, 2, 4, 5)
    x = _uniform(2, 3, 5, 5)
    y = link(x)
    assert y.shape == (2, 2 + 3 + 4 + 5, 5, 5)
    relu = lambda a: numpy.maximum(a, 0)  # noqa: E731

    def conv(c, h, pad=0):
        return conv_ref(h, c.W.array, c.b.array, 1, pad)

    xp = numpy.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], constant_values=-numpy.inf)
    pool = numpy.max([xp[:, :, i:i + 5, j:j + 5] for i in range(3) for j in range(3)], axis=0)
    expected = relu(numpy.concatenate([
        conv(link.conv1, x), conv(link.conv3, relu(conv(link.proj3, x)), 1),
        conv(link.conv5, relu(conv(link.proj5, x)), 2), conv(link.projp, pool)], axis=1))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)


def test_cudnn_fast_mode_needs_a_gpu():
    with chainer.using_config('compute_mode', 'cudnn_fast'):
        link = L.Convolution2D(3, 2, 3)
    with pytest.raises(RuntimeError, match='cudnn_fast'):
        link(_uniform(1, 3, 4, 4))
