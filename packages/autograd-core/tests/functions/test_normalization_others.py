"""group/layer normalization, decorrelated batch normalization, local response
normalization and L2 normalization: forward vs NumPy, gradients, edge shapes, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType

BACKENDS = [{}, {'use_cuda': True}]


def _tolerances(case):
    if case.dtype == numpy.float16:
        case.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        grad = {'atol': 1e-2, 'rtol': 1e-2, 'dtype': numpy.float64}
    else:
        case.check_forward_options = {'atol': 1e-4, 'rtol': 1e-3}
        grad = {'atol': 1e-3, 'rtol': 1e-3, 'dtype': numpy.float64}
    case.check_backward_options = grad
    case.check_double_backward_options = grad


def _ref_group_norm(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    xg = x.astype(numpy.float64).reshape(n, groups, -1)
    xg = (xg - xg.mean(2, keepdims=True)) / numpy.sqrt(xg.var(2, keepdims=True) + eps)
    e = (None, slice(None)) + (None,) * (x.ndim - 2)
    return xg.reshape(x.shape) * gamma[e] + beta[e]


@testing.parameterize(*(
    testing.product({'shape': [(2, 6, 3), (1, 4, 2, 3), (3, 6)], 'groups': [1, 2],
                     'dtype': [numpy.float32]})
    + testing.product({'shape': [(2, 4, 3)], 'groups': [4],
                       'dtype': [numpy.float16, numpy.float64]})))
@testing.inject_backend_tests(None, BACKENDS)
class TestGroupNormalization(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(-1, 1, self.shape[1]).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.shape[1]).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.group_normalization(x, self.groups, gamma, beta, eps=1e-3),

    def forward_expected(self, inputs):
        return _ref_group_norm(*[inputs[0], self.groups, *inputs[1:]], 1e-3).astype(
            self.dtype),


@testing.parameterize(*testing.product({'shape': [(3, 5), (1, 4), (2, 3, 2)],
                                        'dtype': [numpy.float16, numpy.float32]}))
@testing.inject_backend_tests(None, BACKENDS)
class TestLayerNormalization(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(-1, 1, self.shape[1:]).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.shape[1:]).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        return F.layer_normalization(*inputs, eps=1e-3),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        x2 = x.reshape(len(x), -1)
        x2 = (x2 - x2.mean(1, keepdims=True)) / numpy.sqrt(x2.var(1, keepdims=True) + 1e-3)
        return (x2.reshape(x.shape) * gamma + beta).astype(self.dtype),


def test_group_normalization_errors():
    x = numpy.zeros((2, 6, 3), 'f')
    g = numpy.ones(6, 'f')
    with pytest.raises(ValueError, match='groups'):
        F.group_normalization(x, 4, g, g)
    with pytest.raises(TypeError, match='groups'):
        F.group_normalization(x, 2.0, g, g)
    with pytest.raises(ValueError, match='axes'):
        F.group_normalization(numpy.zeros(6, 'f'), 1, g, g)
    with pytest.raises(InvalidType, match='gamma'):
        F.group_normalization(x, 2, numpy.ones(3, 'f'), g)
    with pytest.raises(InvalidType, match='beta'):
        F.layer_normalization(numpy.zeros((2, 6), 'f'), g, numpy.ones(5, 'f'))


def test_group_normalization_empty_batch():
    x = chainer.Variable(numpy.zeros((0, 4, 3), 'f'))
    y = F.group_normalization(x, 2, numpy.ones(4, 'f'), numpy.zeros(4, 'f'))
    assert y.shape == (0, 4, 3)
    y.grad = numpy.zeros(y.shape, 'f')
    y.backward()
    assert x.grad.shape == x.shape


def _ref_zca(x, groups, eps):
    n, c = x.shape[:2]
    xg = x.astype(numpy.float64).reshape(n, groups, c // groups, -1).transpose(1, 2, 0, 3)
    xg = xg.reshape(groups, c // groups, -1)
    ys = []
    for xi in xg:
        xc = xi - xi.mean(1, keepdims=True)
        lam, v = numpy.linalg.eigh(xc @ xc.T / xc.shape[1] + eps * numpy.eye(len(xc)))
        ys.append(v @ numpy.diag(lam ** -0.5) @ v.T @ xc)
    y = numpy.stack(ys).reshape(groups, c // groups, n, -1).transpose(2, 0, 1, 3)
    return y.reshape(x.shape)


@pytest.mark.parametrize('shape,groups', [((6, 4), 2), ((4, 4, 3), 1)])
def test_decorrelated_batch_normalization(shape, groups):
    x = numpy.random.uniform(-1, 1, shape)
    rm = numpy.zeros((groups, shape[1] // groups))
    rp = numpy.zeros((groups,) + (shape[1] // groups,) * 2)
    y = F.decorrelated_batch_normalization(x, groups=groups, eps=1e-2, running_mean=rm,
                                           running_projection=rp, decay=0.5)
    numpy.testing.assert_allclose(y.array, _ref_zca(x, groups, 1e-2), rtol=1e-8, atol=1e-10)
    # the output is white: zero mean, identity covariance (up to eps)
    assert abs(y.array.mean()) < 1e-10
    numpy.testing.assert_allclose(rm.ravel(), 0.5 * x.mean(axis=tuple(
        i for i in range(x.ndim) if i != 1)), rtol=1e-10)
    assert rp.any()

    def f(x):
        return F.decorrelated_batch_normalization(x, groups=groups, eps=1e-2)
    chainer.gradient_check.check_backward(f, x, numpy.random.uniform(-1, 1, shape),
                                          atol=1e-5, rtol=1e-4)


def test_decorrelated_batch_normalization_float16_and_errors():
    x = numpy.random.uniform(-1, 1, (8, 4)).astype(numpy.float16)
    y = F.decorrelated_batch_normalization(x, groups=2, eps=1e-2)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, _ref_zca(x, 2, 1e-2), atol=1e-2, rtol=1e-2)
    with pytest.raises(InvalidType):
        F.decorrelated_batch_normalization(x, groups=3)
    with pytest.raises(ValueError, match='train'):
        F.decorrelated_batch_normalization(x, train=False)
    xv = chainer.Variable(x.astype('f'))
    gy = chainer.Variable(numpy.ones(x.shape, 'f'))
    gx, = chainer.grad([F.decorrelated_batch_normalization(xv, groups=2)], [xv], [gy],
                       enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='double backprop'):
        F.sum(gx).backward()


def test_fixed_decorrelated_batch_normalization():
    x = numpy.random.uniform(-1, 1, (3, 4, 2))
    mean = numpy.random.uniform(-1, 1, (2, 2))
    proj = numpy.random.uniform(-1, 1, (2, 2, 2))
    y = F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=2)
    for g in range(2):
        xc = x[:, 2 * g:2 * g + 2] - mean[g][None, :, None]
        numpy.testing.assert_allclose(y.array[:, 2 * g:2 * g + 2],
                                      numpy.einsum('ij,njs->nis', proj[g], xc), rtol=1e-12)

    def f(x, mean, proj):
        return F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=2)
    gy = numpy.random.uniform(-1, 1, x.shape)
    chainer.gradient_check.check_backward(f, (x, mean, proj), gy)
    ggs = tuple(numpy.random.uniform(-1, 1, a.shape) for a in (x, mean, proj))
    chainer.gradient_check.check_double_backward(f, (x, mean, proj), gy, ggs)
    with pytest.raises(InvalidType, match='projection'):
        F.fixed_decorrelated_batch_normalization(x, mean, proj[:, :1], groups=2)


def _ref_lrn(x, n, k, alpha, beta):
    x = x.astype(numpy.float64)
    y = numpy.empty_like(x)
    for c in range(x.shape[1]):
        lo, hi = max(0, c - n // 2), min(x.shape[1], c + n // 2 + 1)
        s = (x[:, lo:hi] ** 2).sum(axis=1)
        y[:, c] = x[:, c] / (k + alpha * s) ** beta
    return y


@pytest.mark.parametrize('shape,n', [((2, 7, 3, 2), 5), ((3, 4), 3), ((2, 3, 2), 8)])
def test_local_response_normalization(fc, dtype, shape, n):
    x = fc.uniform(shape, dtype, -2, 2)
    expected = _ref_lrn(x, n, 1, 0.5, 0.75).astype(dtype)

    def f(x):
        return F.local_response_normalization(x, n, 1, 0.5, 0.75)
    fc.check_forward(f, (x,), expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)
    with pytest.raises(InvalidType):
        F.local_response_normalization(x.ravel())


@pytest.mark.parametrize('shape,axis', [((3, 4), 1), ((3, 4, 2), (0, 2)), ((4,), 0),
                                        ((), ()), ((0, 2), 1), ((2, 3), -1)])
def test_normalize(fc, dtype, shape, axis):
    x = fc.uniform(shape, dtype, -1, 1)
    x64 = x.astype(numpy.float64)
    norm = numpy.sqrt((x64 * x64).sum(axis=axis, keepdims=True))
    fc.check_forward(lambda x: F.normalize(x, 1e-3, axis), (x,),
                     (x64 / (norm + 1e-3)).astype(dtype), dtype)
    if dtype != numpy.float16 and x.size:
        fc.check_backward(lambda x: F.normalize(x, 1e-3, axis), (x,), dtype)
        fc.check_double_backward(lambda x: F.normalize(x, 1e-3, axis), (x,), dtype)


def test_normalize_zero_vector():
    # a zero vector gives zeros; its gradient is gy / eps (the norm's kink taken as 0)
    x = chainer.Variable(numpy.zeros((2, 3)))
    y = F.normalize(x, eps=0.5)
    numpy.testing.assert_array_equal(y.array, 0)
    gy = numpy.random.uniform(-1, 1, (2, 3))
    y.grad = gy
    y.backward()
    numpy.testing.assert_allclose(x.grad, gy / 0.5)
    with pytest.raises(ValueError, match='axis'):
        F.normalize(numpy.zeros((2, 3)), axis=2)
