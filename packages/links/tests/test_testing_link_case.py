"""LinkTestCase and LinkInitializersTestCase on L.Linear and on broken links."""

import unittest

import numpy

import chainer
import chainer.functions as F
from chainer import FunctionNode, testing

BACKENDS = [{}, {'use_cuda': True}]


def _run(cls, name):
    """Run test ``name`` of the class inject_backend_tests generated for the CPU."""
    result = unittest.TestResult()
    cls.cases[0][0](name).run(result)
    return result


@testing.inject_backend_tests(None, BACKENDS)
class TestLinearLink(testing.LinkTestCase):
    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
        return W, b

    def create_link(self, initializers):
        W, b = initializers
        return chainer.links.Linear(2, 3, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),)

    def forward_expected(self, link, inputs):
        assert isinstance(link.W.array, numpy.ndarray)
        (x,) = inputs
        return (x.dot(link.W.array.T) + link.b.array,)


@testing.inject_backend_tests(None, BACKENDS)
class TestLinearLinkInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return None, None

    def create_link(self, initializers):
        W, b = initializers
        return chainer.links.Linear(None, 3, initialW=W, initial_bias=b)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),)

    def get_initializers(self):
        return (
            [2.0, chainer.initializers.Constant(3.0), chainer.initializers.Normal(),
             numpy.arange(6, dtype=numpy.float32).reshape(3, 2)],
            [testing.InitializerArgument(None, 0), 1.5, chainer.initializers.Uniform()],
        )


def _linear_with_broken_grad_W():
    class BrokenW(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0, 1))
            x, W = inputs
            return (x.dot(W.T),)

        def backward(self, indexes, grad_outputs):
            x, W = self.get_retained_inputs()
            (gy,) = grad_outputs
            return F.matmul(gy, W), F.matmul(gy, x, transa=True) * 0.5

    class Link(chainer.Link):
        def __init__(self, W):
            super().__init__()
            with self.init_scope():
                self.W = chainer.Parameter(W)

        def forward(self, x):
            return BrokenW().apply((x, self.W))[0]

    return Link


def test_link_with_wrong_parameter_gradient_fails():
    Link = _linear_with_broken_grad_W()

    @testing.inject_backend_tests(None, [{}])
    class Case(testing.LinkTestCase):
        param_names = ('W',)

        def generate_params(self):
            return (numpy.random.uniform(-1, 1, (3, 2)),)

        def create_link(self, initializers):
            return Link(initializers[0])

        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (4, 2)),)

        def forward_expected(self, link, inputs):
            return (inputs[0].dot(link.W.array.T),)

    assert _run(Case, 'test_forward').wasSuccessful()
    result = _run(Case, 'test_backward')
    assert len(result.failures) == 1
    assert 'LinkTestError' in result.failures[0][1] and 'param 0' in result.failures[0][1]
    # Without the parameter in param_names the input gradient alone is right.
    Case.cases[0][0].param_names = ()
    assert _run(Case, 'test_backward').wasSuccessful()
    Case.cases[0][0].param_names = ('nope',)
    assert 'no parameter' in _run(Case, 'test_backward').failures[0][1]


def test_link_ignoring_its_initializer_fails():
    @testing.inject_backend_tests(None, [{}])
    class Case(testing.LinkInitializersTestCase):
        param_names = ('W',)

        def generate_params(self):
            return (None,)

        def create_link(self, initializers):
            # Ignores the given initializer: always zeros.
            return chainer.links.Linear(2, 3, initialW=0)

        def generate_inputs(self):
            return (numpy.ones((1, 2), numpy.float32),)

        def get_initializers(self):
            return ([chainer.initializers.Constant(2.0)],)

    result = _run(Case, 'test_initializers')
    assert len(result.failures) == 1 and 'LinkTestError' in result.failures[0][1]
