"""Initializer arguments of the links (LinkInitializersTestCase): scalars, arrays,
initializer objects and defaults, for eagerly and lazily sized parameters."""

import numpy

import chainer
import chainer.links as L
from chainer import testing

BACKENDS = [{}, {'use_cuda': True}]


def _candidates(W_shape, default_W=None, default_b=0):
    W = [2.0, chainer.initializers.Constant(-1.5), chainer.initializers.Normal(),
         numpy.random.uniform(-1, 1, W_shape).astype(numpy.float32)]
    if default_W is not None:
        W.append(testing.InitializerArgument(None, default_W))
    b = [testing.InitializerArgument(None, default_b), 1.5, chainer.initializers.Uniform()]
    return W, b


@testing.parameterize(*testing.product({'lazy': [False, True]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestConvolution2DInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return None, None

    def create_link(self, initializers):
        W, b = initializers
        return L.Convolution2D(None if self.lazy else 3, 4, 2, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32),

    def get_initializers(self):
        return _candidates((4, 3, 2, 2), chainer.initializers.LeCunNormal())


@testing.inject_backend_tests(None, BACKENDS)
class TestDeconvolutionNDInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return None, None

    def create_link(self, initializers):
        W, b = initializers
        return L.DeconvolutionND(1, None, 2, 3, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32),

    def get_initializers(self):
        return _candidates((3, 2, 3), chainer.initializers.LeCunNormal())


@testing.inject_backend_tests(None, BACKENDS)
class TestSimplifiedDropconnectInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return None, None

    def create_link(self, initializers):
        W, b = initializers
        return L.SimplifiedDropconnect(None, 3, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 5)).astype(numpy.float32),

    def forward(self, link, inputs, device):
        return link(*inputs, train=False),

    def get_initializers(self):
        return _candidates((3, 5), chainer.initializers.LeCunNormal())


@testing.inject_backend_tests(None, BACKENDS)
class TestEmbedIDInitializers(testing.LinkInitializersTestCase):
    param_names = ('W',)

    def generate_params(self):
        return None,

    def create_link(self, initializers):
        W, = initializers
        return L.EmbedID(5, 3, initialW=W)

    def generate_inputs(self):
        return numpy.array([0, 4, 2], numpy.int32),

    def get_initializers(self):
        return _candidates((5, 3), chainer.initializers.Normal(1.0))[:1]


@testing.inject_backend_tests(None, BACKENDS)
class TestCRF1dInitializers(testing.LinkInitializersTestCase):
    param_names = ('cost',)

    def generate_params(self):
        return None,

    def create_link(self, initializers):
        cost, = initializers
        return L.CRF1d(3, initial_cost=cost)

    def generate_inputs(self):
        return ()

    def forward(self, link, inputs, device):
        xs = [device.send(numpy.ones((2, 3), numpy.float32))]
        ys = [device.send(numpy.zeros(2, numpy.int32))]
        return link(xs, ys),

    def get_initializers(self):
        return _candidates((3, 3), chainer.initializers.Zero())[:1]
