"""Bilinear, EmbedID, Highway, Scale, Bias and the activation links."""

import numpy
import pytest
from _refs import check_file_round_trips, check_link_contract, sigmoid

import chainer
import chainer.links as L
from chainer import testing
from chainer.utils import type_check

BACKENDS = [{}, {'use_cuda': True}]


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@testing.parameterize(*testing.product({'nobias': [False, True]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestBilinear(testing.LinkTestCase):
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    @property
    def param_names(self):
        return ('W',) if self.nobias else ('W', 'V1', 'V2', 'b')

    def generate_params(self):
        return (chainer.initializers.Normal(1),
                None if self.nobias else (chainer.initializers.Normal(1),
                                          chainer.initializers.Normal(1),
                                          chainer.initializers.Normal(1)))

    def create_link(self, initializers):
        W, bias = initializers
        return L.Bilinear(3, 2, 4, self.nobias, W, bias)

    def generate_inputs(self):
        return _uniform(5, 3), _uniform(5, 2)

    def forward_expected(self, link, inputs):
        e1, e2 = inputs
        y = numpy.einsum('ni,nj,ijk->nk', e1, e2, link.W.array)
        if not self.nobias:
            y = y + e1 @ link.V1.array + e2 @ link.V2.array + link.b.array
        return y.astype('f'),


def test_bilinear_initial_arrays_are_checked():
    W = numpy.zeros((3, 2, 4), 'f')
    link = L.Bilinear(3, 2, 4, False, W, (numpy.ones((3, 4), 'f'), 2.0, 0.5))
    numpy.testing.assert_array_equal(link.V2.array, numpy.full((2, 4), 2.0))
    assert link.in_sizes == (3, 2)
    with pytest.raises(ValueError, match='initial value of W'):
        L.Bilinear(3, 2, 4, initialW=numpy.zeros((4, 2, 4), 'f'))
    with pytest.raises(AssertionError):  # what v7 raised
        L.Bilinear(3, 2, 4, initial_bias=(numpy.zeros((2, 4), 'f'), None, None))
    with pytest.raises(ValueError, match='triple'):
        L.Bilinear(3, 2, 4, initial_bias=(1.0, 2.0))
    assert [n for n, _ in L.Bilinear(3, 2, 4, nobias=True).namedparams()] == ['/W']


@testing.inject_backend_tests(None, BACKENDS)
class TestHighway(testing.LinkTestCase):
    param_names = ('plain/W', 'plain/b', 'transform/W', 'transform/b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.Highway(3, activate=chainer.functions.tanh,
                         init_bh=chainer.initializers.Normal(1))

    def generate_inputs(self):
        return _uniform(4, 3),

    def forward_expected(self, link, inputs):
        x = inputs[0]
        h = numpy.tanh(x @ link.plain.W.array.T + link.plain.b.array)
        t = sigmoid(x @ link.transform.W.array.T + link.transform.b.array)
        return (h * t + x * (1 - t)).astype('f'),


def test_highway_default_gate_bias():
    link = L.Highway(3)
    numpy.testing.assert_array_equal(link.transform.b.array, [-1, -1, -1])
    numpy.testing.assert_array_equal(link.plain.b.array, [0, 0, 0])


@testing.parameterize(*testing.product({'ignore_label': [None, -1]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestEmbedID(testing.LinkTestCase):
    param_names = ('W',)
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.EmbedID(4, 3, ignore_label=self.ignore_label)

    def generate_inputs(self):
        x = numpy.array([[0, 3, 1], [2, 2, 0]], numpy.int32)
        if self.ignore_label is not None:
            x[1, 0] = -1
        return x,

    def forward_expected(self, link, inputs):
        x = inputs[0]
        y = link.W.array[numpy.where(x < 0, 0, x)]
        y[x < 0] = 0
        return y,


def test_embed_id_defaults_from_params_and_old_pickles():
    numpy.random.seed(0)
    link = L.EmbedID(300, 200)
    assert abs(link.W.array.std() - 1.0) < 0.02  # Normal(1.0), as v7
    link2 = L.EmbedID.from_params(link.W, ignore_label=-1)
    assert link2.ignore_label == -1 and link2.W.array is not link.W.array
    del link2.ignore_label  # a link pickled before ignore_label existed
    assert link2.ignore_label is None
    with pytest.raises(ValueError, match='2-dimensional'):
        L.EmbedID.from_params(numpy.zeros(3, 'f'))
    with chainer.using_config('debug', True), pytest.raises(ValueError):
        L.EmbedID(2, 2)(numpy.array([2], numpy.int32))


@testing.parameterize(
    {'learn': True, 'bias_term': False},
    {'learn': True, 'bias_term': True},
    {'learn': False, 'bias_term': True},
)
class TestScaleAndBias:
    def test_scale(self):
        x = _uniform(3, 2, 4)
        W = _uniform(2)
        link = L.Scale(1, (2,) if self.learn else None, self.bias_term,
                       None if self.learn else (2,))
        if self.learn:
            link.W.array[...] = W
        if self.bias_term:
            link.bias.b.array[...] = W * 2
        y = link(x) if self.learn else link(x, W)
        expected = x * W[:, None] + (W * 2)[:, None] * self.bias_term
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
        assert hasattr(link, 'W') == self.learn and hasattr(link, 'bias') == self.bias_term


def test_scale_and_bias_argument_errors():
    x = _uniform(3, 2)
    with pytest.raises(TypeError, match='one input'):
        L.Scale(1, (2,))(x, _uniform(2))
    with pytest.raises(AssertionError):  # what v7 raised
        L.Bias(1, None)(x)
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(1, None, True, None)
    b = L.Bias(1, (2,))
    numpy.testing.assert_array_equal(b(x).array, x)
    numpy.testing.assert_array_equal(L.Scale(1, (2,))(x).array, x)


@testing.parameterize(*testing.product({'shape': [(), (3,), (3, 2)]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestPReLU(testing.LinkTestCase):
    param_names = ('W',)
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    dodge_nondifferentiable = True

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        link = L.PReLU(self.shape)
        link.W.array[...] = _uniform(*self.shape)
        return link

    def generate_inputs(self):
        return _uniform(4, 3, 2),

    def forward_expected(self, link, inputs):
        x = inputs[0]
        W = link.W.array.reshape(self.shape + (1,) * (2 - len(self.shape)))
        return numpy.where(x >= 0, x, x * W).astype('f'),


@testing.parameterize(*testing.product({'beta_shape': [(), (3, 2), None]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestSwish(testing.LinkTestCase):
    param_names = ('beta',)
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.Swish(self.beta_shape, beta_init=chainer.initializers.Normal(1))

    def generate_inputs(self):
        return _uniform(4, 3, 2),

    def forward_expected(self, link, inputs):
        x = inputs[0]
        return (x * sigmoid(link.beta.array * x)).astype('f'),


def test_swish_lazy_beta_takes_the_sample_shape():
    link = L.Swish(None)
    assert link.beta.array is None
    link(_uniform(5, 3, 2))
    assert link.beta.shape == (3, 2)
    numpy.testing.assert_array_equal(link.beta.array, numpy.ones((3, 2)))


@testing.parameterize(*testing.product({'bias': ['default', None, 'array']}))
@testing.inject_backend_tests(None, BACKENDS)
class TestMaxout(testing.LinkTestCase):
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
    dodge_nondifferentiable = True

    @property
    def param_names(self):
        return ('linear/W',) if self.bias is None else ('linear/W', 'linear/b')

    def generate_params(self):
        W = _uniform(3, 2, 4)  # (out, pool, in)
        b = {'default': 0, None: None, 'array': _uniform(3, 2)}[self.bias]
        return W, b

    def create_link(self, initializers):
        W, b = initializers
        return L.Maxout(4, 3, 2, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return _uniform(5, 2, 2),

    def forward_expected(self, link, inputs):
        x = inputs[0].reshape(5, 4)
        y = numpy.einsum('ni,opi->nop', x, link.linear.W.array.reshape(3, 2, 4))
        if link.linear.b is not None:
            y = y + link.linear.b.array.reshape(3, 2)
        return y.max(axis=2).astype('f'),


def test_maxout_initializer_layout_and_errors():
    calls = []

    def init(array):
        calls.append(array.shape)
        array[...] = numpy.arange(array.size).reshape(array.shape)

    link = L.Maxout(2, 3, 4, initialW=init, initial_bias=init)
    # As in Chainer v7, a given initializer sees Maxout's layout (its fans come from it)
    assert calls == [(3, 4, 2), (3, 4)]
    assert link.linear.W.shape == (12, 2)
    numpy.testing.assert_array_equal(link.linear.b.array, numpy.arange(12))
    with pytest.raises(ValueError, match='initialW'):
        L.Maxout(2, 3, 4, initialW=numpy.zeros((3, 4, 2, 1), 'f'))
    with pytest.raises(ValueError, match='initial_bias'):
        L.Maxout(2, 3, 4, initial_bias=numpy.zeros((3, 4, 1), 'f'))
    with pytest.raises(type_check.InvalidType):
        L.Maxout(2, 3, 4)(_uniform(5, 7))
    with chainer.using_config('dtype', numpy.float16):
        assert L.Maxout(2, 3, 4).linear.W.dtype == numpy.float16



def test_maxout_initializer_objects_draw_on_the_linear_shape():
    import hashlib

    # An Initializer draws on the Linear's (out * pool, in) weight, as in v7: an explicit
    # LeCunNormal draws what the default does, under the same seed
    numpy.random.seed(0)
    default = L.Maxout(5, 3, 4).linear.W.array
    numpy.random.seed(0)
    explicit = L.Maxout(5, 3, 4, initialW=chainer.initializers.LeCunNormal()).linear.W.array
    numpy.testing.assert_array_equal(default, explicit)
    # recorded from Chainer 7.8.1: SHA-256 of W's then b's float32 bytes
    numpy.random.seed(0)
    link = L.Maxout(5, 3, 4, initialW=chainer.initializers.HeUniform(),
                    initial_bias=chainer.initializers.Normal(0.5))
    digest = hashlib.sha256(link.linear.W.array.tobytes() + link.linear.b.array.tobytes())
    assert digest.hexdigest()[:16] == '7a5099787e136975'


def test_simplified_dropconnect_with_a_given_mask():
    link = L.SimplifiedDropconnect(None, 3, ratio=0.25)
    x = _uniform(4, 2, 2)
    mask = numpy.random.rand(4, 3, 4) >= 0.25
    y = link(x, train=True, mask=mask)
    W = link.W.array * mask / 0.75
    expected = numpy.einsum('noi,ni->no', W, x.reshape(4, 4)) + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    assert link.W.shape == (3, 4)
    y_test = link(x, train=False)
    numpy.testing.assert_allclose(y_test.array, x.reshape(4, 4) @ link.W.array.T
                                  + link.b.array, rtol=1e-5, atol=1e-6)
    with pytest.raises(type_check.InvalidType):
        link(_uniform(4, 5))


@pytest.mark.parametrize('make,inputs', [
    (lambda: L.Bilinear(3, 2, 4), lambda: (_uniform(5, 3), _uniform(5, 2))),
    (lambda: L.Bilinear(3, 2, 4, nobias=True), lambda: (_uniform(5, 3), _uniform(5, 2))),
    (lambda: L.EmbedID(5, 3, ignore_label=-1), lambda: (numpy.array([0, -1, 4], 'i'),)),
    (lambda: L.Highway(3), lambda: (_uniform(4, 3),)),
    (lambda: L.Scale(1, (2,), bias_term=True), lambda: (_uniform(4, 2, 3),)),
    (lambda: L.Bias(1, (2,)), lambda: (_uniform(4, 2, 3),)),
    (lambda: L.PReLU((2,)), lambda: (_uniform(4, 2, 3),)),
    (lambda: L.Swish(None), lambda: (_uniform(4, 2, 3),)),
    (lambda: L.Maxout(6, 3, 2), lambda: (_uniform(4, 2, 3),)),
])
def test_contract(make, inputs, tmp_path):
    xs = inputs()
    check_link_contract(make, xs)
    check_file_round_trips(make, xs, tmp_path)


def test_contract_of_simplified_dropconnect(tmp_path):
    def make():
        return L.SimplifiedDropconnect(None, 3)

    xs = (_uniform(4, 2, 3),)
    check_link_contract(make, xs, train=False)  # its own switch, not chainer.config.train
    check_file_round_trips(make, xs, tmp_path, train=False)


def test_theano_function_is_refused():
    from chainer.links.theano import theano_function

    assert theano_function.TheanoFunction is L.TheanoFunction
    with pytest.raises(RuntimeError, match='Theano'):
        L.TheanoFunction(None, None)
