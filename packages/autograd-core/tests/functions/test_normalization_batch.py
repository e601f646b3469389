"""batch_normalization, fixed_batch_normalization and batch renormalization: forward vs
a NumPy reference, running statistics, gradients (fast path and graph path), edge
shapes and bad input."""

import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.normalization import batch_renormalization as renorm_module
from chainer.utils.type_check import InvalidType

BACKENDS = [{}, {'use_cuda': True}]


def _ref_bn(x, gamma, beta, eps, axis):
    """Batch normalization in float64 with the parameters broadcast over ``axis``."""
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True)
    shape = mean.shape
    g = gamma.astype(numpy.float64).reshape(shape)
    b = beta.astype(numpy.float64).reshape(shape)
    return g * (x - mean) / numpy.sqrt(var + eps) + b, mean.reshape(gamma.shape), \
        var.reshape(gamma.shape)


def _tolerances(case, dtype):
    if dtype == numpy.float16:
        case.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        grad = {'atol': 1e-2, 'rtol': 1e-2, 'dtype': numpy.float64}
    else:
        case.check_forward_options = {'atol': 1e-4, 'rtol': 1e-3}
        grad = {'atol': 1e-4, 'rtol': 1e-3, 'dtype': numpy.float64}
    case.check_backward_options = grad
    case.check_double_backward_options = dict(grad, atol=1e-3, rtol=1e-2)


@testing.parameterize(*(
    testing.product({
        'case': [
            ((5, 3), (3,), None),
            ((4, 3, 2, 2), (3,), None),
            ((3, 2, 3, 2), (2, 3), None),
            ((4, 3, 2), (4, 2), 1),         # parameters on non-adjacent axes
            ((5, 4, 3), (3,), (0, 1)),
            ((2, 3, 4), (2, 4), (1,)),
        ],
        'dtype': [numpy.float32],
        'param_dtype': [numpy.float32],
    }) + testing.product({
        'case': [((4, 3, 2), (3,), None)],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
        'param_dtype': [numpy.float16, numpy.float64],
    })))
@testing.inject_backend_tests(None, BACKENDS)
class TestBatchNormalization(testing.FunctionTestCase):

    eps = 2e-5

    def setUp(self):
        self.shape, self.param_shape, self.axis = self.case
        _tolerances(self, numpy.float16 if numpy.float16 in (self.dtype, self.param_dtype)
                    else self.dtype)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(.5, 1, self.param_shape).astype(self.param_dtype)
        beta = numpy.random.uniform(-1, 1, self.param_shape).astype(self.param_dtype)
        return x, gamma, beta

    def _axis(self):
        if self.axis is not None:
            return (self.axis,) if isinstance(self.axis, int) else self.axis
        return (0,) + tuple(range(1 + len(self.param_shape), len(self.shape)))

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        y = F.batch_normalization(x, gamma, beta, eps=self.eps, axis=self.axis)
        assert y.dtype == x.dtype
        return y,

    def forward_expected(self, inputs):
        y, _, _ = _ref_bn(*inputs, self.eps, self._axis())
        return y.astype(self.dtype),


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'shape': [(4, 3), (3, 3, 2, 2)],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestFixedBatchNormalization(testing.FunctionTestCase):

    eps = 1e-3

    def setUp(self):
        _tolerances(self, self.dtype)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma, beta, mean = (numpy.random.uniform(-1, 1, 3).astype(self.dtype)
                             for _ in range(3))
        var = numpy.random.uniform(.5, 1, 3).astype(self.dtype)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return F.fixed_batch_normalization(*inputs, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta, mean, var = (a.astype(numpy.float64) for a in inputs)
        e = (None, slice(None)) + (None,) * (x.ndim - 2)
        y = gamma[e] * (x - mean[e]) / numpy.sqrt(var[e] + self.eps) + beta[e]
        return y.astype(self.dtype),


def test_running_statistics_updated_in_place():
    x = numpy.random.uniform(-1, 1, (6, 3, 2)).astype(numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    beta = numpy.zeros(3, numpy.float32)
    rm = numpy.random.uniform(-1, 1, 3).astype(numpy.float64)
    rv = numpy.random.uniform(.5, 1, 3).astype(numpy.float64)
    rm0, rv0 = rm.copy(), rv.copy()
    # a Fortran-ordered running mean is updated in place too
    rm_f = numpy.asfortranarray(numpy.stack([rm0, rm0]))[0]
    F.batch_normalization(x, gamma, beta, running_mean=rm, running_var=rv, decay=0.7)
    F.batch_normalization(x, gamma, beta, running_mean=rm_f, decay=0.7)
    _, mean, var = _ref_bn(x, gamma, beta, 0, (0, 2))
    m = 12
    numpy.testing.assert_allclose(rm, 0.7 * rm0 + 0.3 * mean, rtol=1e-6)
    numpy.testing.assert_allclose(rv, 0.7 * rv0 + 0.3 * var * m / (m - 1), rtol=1e-6)
    numpy.testing.assert_allclose(rm_f, rm, rtol=1e-6)
    assert rm.dtype == numpy.float64


def test_fast_and_graph_backward_agree():
    x = numpy.random.uniform(-1, 1, (5, 3, 4))
    gamma = numpy.random.uniform(.5, 1, 3)
    beta = numpy.random.uniform(-1, 1, 3)
    gy = numpy.random.uniform(-1, 1, x.shape)
    grads = []
    for double in (False, True):
        xs = [chainer.Variable(a) for a in (x, gamma, beta)]
        y = F.batch_normalization(*xs)
        y.grad = gy
        y.backward(enable_double_backprop=double)
        grads.append([v.grad for v in xs])
    for a, b in zip(*grads):
        numpy.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_large_mean_keeps_precision():
    # a two-pass variance: no cancellation when the mean dwarfs the deviation
    x = (1000 + numpy.random.uniform(-1, 1, (64, 2))).astype(numpy.float32)
    y = F.batch_normalization(x, numpy.ones(2, 'f'), numpy.zeros(2, 'f'), eps=0)
    numpy.testing.assert_allclose(y.array.std(axis=0), 1, rtol=1e-3)


def test_batch_of_one_warns():
    args = [numpy.ones((1, 3), 'f'), numpy.ones(3, 'f'), numpy.zeros(3, 'f')]
    with pytest.warns(UserWarning, match='one sample'):
        F.batch_normalization(*args)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.batch_normalization(numpy.ones((2, 3), 'f'), *args[1:])


def test_empty_batch():
    x = numpy.zeros((0, 3, 2), 'f')
    rm = numpy.ones(3, 'f')
    xv = chainer.Variable(x)
    y = F.batch_normalization(xv, numpy.ones(3, 'f'), numpy.zeros(3, 'f'), running_mean=rm)
    assert y.shape == (0, 3, 2)
    numpy.testing.assert_array_equal(rm, 1)  # nothing to learn from
    y.grad = numpy.zeros_like(x)
    y.backward()
    assert xv.grad.shape == x.shape


@pytest.mark.parametrize('gamma_shape,beta_shape', [((4,), (3,)), ((3,), (4,)),
                                                     ((2,), (2,)), ((3, 1), (3, 1))])
def test_mismatched_params(gamma_shape, beta_shape):
    x = numpy.zeros((2, 3, 2), 'f')
    with pytest.raises(InvalidType, match='gamma|beta'):
        F.batch_normalization(x, numpy.ones(gamma_shape, 'f'), numpy.ones(beta_shape, 'f'))


def test_bad_arguments():
    x, g = numpy.zeros((2, 3), 'f'), numpy.ones(3, 'f')
    with pytest.raises(ValueError, match='train'):
        F.batch_normalization(x, g, g, train=True)
    with pytest.raises(TypeError, match='foo'):
        F.batch_normalization(x, g, g, foo=1)
    with pytest.raises(ValueError, match='axis'):
        F.batch_normalization(x, g, g, axis=(0, 0))
    with pytest.raises(InvalidType, match='var'):
        F.fixed_batch_normalization(x, g, g, g, numpy.ones(2, 'f'))


def _ref_renorm(x, gamma, beta, rmean, rvar, rmax, dmax, eps):
    mean = x.mean(axis=0)
    std = numpy.sqrt(x.var(axis=0) + eps)
    rstd = numpy.sqrt(rvar + eps)
    r = numpy.clip(std / rstd, 1 / rmax, rmax)
    d = numpy.clip((mean - rmean) / rstd, -dmax, dmax)
    return gamma * ((x - mean) / std * r + d) + beta, r, d


@pytest.mark.parametrize('update', [True, False])
def test_batch_renormalization(update):
    x = numpy.random.uniform(-3, 3, (7, 4))
    gamma = numpy.random.uniform(.5, 1, 4)
    beta = numpy.random.uniform(-1, 1, 4)
    rm = numpy.random.uniform(-1, 1, 4)
    rv = numpy.random.uniform(.1, 1, 4)
    rm0, rv0 = rm.copy(), rv.copy()
    xv, gv, bv = (chainer.Variable(a) for a in (x, gamma, beta))
    y = F.batch_renormalization(xv, gv, bv, 2, 0.5, eps=1e-3, running_mean=rm,
                                running_var=rv, update_statistics=update)
    y_ref, r, d = _ref_renorm(x, gamma, beta, rm0, rv0, 2, 0.5, 1e-3)
    numpy.testing.assert_allclose(y.array, y_ref, rtol=1e-10)
    if update:
        numpy.testing.assert_allclose(rm, 0.9 * rm0 + 0.1 * x.mean(0))
        numpy.testing.assert_allclose(rv, 0.9 * rv0 + 0.1 * x.var(0) * 7 / 6)
    else:
        numpy.testing.assert_array_equal(rm, rm0)
    # r and d are constants: the gradient is that of batch normalization with gamma * r
    gy = numpy.random.uniform(-1, 1, x.shape)
    y.grad = gy
    y.backward()
    x2, g2 = chainer.Variable(x), chainer.Variable(gamma * r)
    y2 = F.batch_normalization(x2, g2, numpy.zeros(4), eps=1e-3)
    y2.grad = gy
    y2.backward()
    numpy.testing.assert_allclose(xv.grad, x2.grad, rtol=1e-8, atol=1e-12)
    numpy.testing.assert_allclose(gv.grad, (gy * ((y_ref - beta) / gamma)).sum(0), rtol=1e-8)
    numpy.testing.assert_allclose(bv.grad, gy.sum(0), rtol=1e-10)


def test_batch_renormalization_double_backward():
    x = numpy.random.uniform(-1, 1, (5, 3, 2))
    gamma = numpy.random.uniform(.5, 1, 3)
    beta = numpy.random.uniform(-1, 1, 3)
    rm, rv = numpy.zeros(3), numpy.ones(3)

    # rmax=1, dmax=0 keep r and d constant under the numerical perturbations
    def f(x, gamma, beta):
        return renorm_module.batch_renormalization(x, gamma, beta, 1, 0,
                                                   running_mean=rm.copy(), running_var=rv)
    gy = numpy.random.uniform(-1, 1, x.shape)
    ggs = tuple(numpy.random.uniform(-1, 1, a.shape) for a in (x, gamma, beta))
    chainer.gradient_check.check_double_backward(f, (x, gamma, beta), gy, ggs, atol=1e-4,
                                                 rtol=1e-4)


def test_fixed_batch_renormalization_is_deprecated():
    args = [numpy.random.uniform(-1, 1, (3, 2))] + [numpy.ones(2)] * 4
    with pytest.warns(DeprecationWarning):
        y = F.fixed_batch_renormalization(*args)
    numpy.testing.assert_allclose(y.array, F.fixed_batch_normalization(*args).array)
