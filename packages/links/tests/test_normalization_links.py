"""Tests of L.DecorrelatedBatchNormalization, L.GroupNormalization and L.LayerNormalization."""

import warnings

import numpy
import pytest
from dict_serializers import DictLoader, DictSaver

import chainer
import chainer.links as L
from chainer import gradient_check, testing
from chainer.utils import type_check


def _zca(x, groups, eps):
    """Whiten each group of channels of x (N, C, ...) with the batch statistics."""
    n, c = x.shape[:2]
    cols = x.reshape(n, groups, c // groups, -1).transpose(1, 2, 0, 3).reshape(
        groups, c // groups, -1)
    out = numpy.empty_like(cols)
    for g in range(groups):
        centred = cols[g] - cols[g].mean(1, keepdims=True)
        cov = centred @ centred.T / centred.shape[1] + eps * numpy.eye(len(centred))
        w, v = numpy.linalg.eigh(cov)
        out[g] = (v * w ** -0.5) @ v.T @ centred
    rest = x.shape[2:]
    return out.reshape(groups, c // groups, n, *rest).transpose(
        2, 0, 1, *range(3, 3 + len(rest))).reshape(x.shape)


def test_decorrelated_whitens_in_training_and_keeps_statistics():
    dbn = L.DecorrelatedBatchNormalization(4, groups=2, dtype=numpy.float64)
    assert dbn.avg_mean.shape == (2, 2) and dbn.avg_projection.shape == (2, 2, 2)
    numpy.testing.assert_array_equal(dbn.avg_projection[1], numpy.eye(2))
    x = numpy.random.randn(10, 4, 3)
    y = dbn(x)
    numpy.testing.assert_allclose(y.array, _zca(x, 2, dbn.eps), rtol=1e-6, atol=1e-8)
    assert not numpy.allclose(dbn.avg_mean, 0)
    with chainer.using_config('train', False):
        y_test = dbn(x)
    assert y_test.shape == x.shape


def test_decorrelated_bad_groups():
    with pytest.raises(ValueError, match='groups'):
        L.DecorrelatedBatchNormalization(6, groups=4)


def test_decorrelated_loads_statistics_saved_without_the_group_axis():
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    old = {'avg_mean': numpy.array([1., 2.], 'f'), 'N': numpy.array(0),
           'avg_projection': numpy.array([[2., 0.], [0., 3.]], 'f')}
    with pytest.warns(UserWarning, match='older Chainer'):
        dbn.serialize(DictLoader(old))
    numpy.testing.assert_array_equal(dbn.avg_mean, [[1, 2], [1, 2]])
    numpy.testing.assert_array_equal(dbn.avg_projection[1], [[2, 0], [0, 3]])
    # one group: no warning
    single = L.DecorrelatedBatchNormalization(2, groups=1)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        single.serialize(DictLoader(old))
    numpy.testing.assert_array_equal(single.avg_mean, [[1, 2]])


def test_decorrelated_round_trip():
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    dbn(numpy.random.randn(6, 4).astype('f'))
    saved = {}
    dbn.serialize(DictSaver(saved))
    other = L.DecorrelatedBatchNormalization(4, groups=2)
    other.serialize(DictLoader(saved))
    numpy.testing.assert_array_equal(other.avg_projection, dbn.avg_projection)


@testing.parameterize(*testing.product({
    'shape': [(3, 4, 5), (2, 6)],
    'groups': [1, 2],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}])
class TestGroupNormalizationLink(testing.LinkTestCase):

    param_names = ('gamma', 'beta')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        c = self.shape[1]
        return (numpy.random.uniform(.5, 1, c).astype(self.dtype),
                numpy.random.uniform(-1, 1, c).astype(self.dtype))

    def create_link(self, initializers):
        gamma, beta = initializers
        with chainer.using_config('dtype', self.dtype):
            return L.GroupNormalization(self.groups, initial_gamma=gamma, initial_beta=beta)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward_expected(self, link, inputs):
        x, = inputs
        rows = x.reshape(self.shape[0] * self.groups, -1)
        rows = (rows - rows.mean(1, keepdims=True)) / numpy.sqrt(
            rows.var(1, keepdims=True) + link.eps)
        keep = (None, slice(None)) + (None,) * (x.ndim - 2)
        y = rows.reshape(x.shape) * link.gamma.array[keep] + link.beta.array[keep]
        return y.astype(self.dtype),


def test_group_normalization_lazy_size_and_errors():
    gn = L.GroupNormalization(2)
    assert gn.gamma.array is None
    gn(numpy.zeros((1, 4, 3), 'f'))
    assert gn.gamma.shape == (4,)
    numpy.testing.assert_array_equal(gn.gamma.array, numpy.ones(4))
    with pytest.raises(ValueError, match='at least 2 axes'):
        L.GroupNormalization(2)(numpy.zeros((3,), 'f'))
    with pytest.raises(ValueError, match='divisor'):
        L.GroupNormalization(3)(numpy.zeros((2, 5), 'f'))
    with pytest.raises(TypeError):
        L.GroupNormalization(2.5)(numpy.zeros((2, 5), 'f'))
    assert L.GroupNormalization(2, size=6).gamma.shape == (6,)


def test_group_normalization_mixed16_parameters_are_float32():
    with chainer.using_config('dtype', chainer.mixed16):
        gn = L.GroupNormalization(1)
        y = gn(numpy.random.randn(2, 3).astype(numpy.float16))
    assert gn.gamma.dtype == numpy.float32 and y.dtype == numpy.float16


def test_layer_normalization_forward_and_backward():
    ln = L.LayerNormalization(initial_gamma=numpy.array([1., 2., 3.], 'f'), initial_beta=.5)
    x = numpy.random.randn(4, 3).astype('f')
    y = ln(x)
    expected = (x - x.mean(1, keepdims=True)) / numpy.sqrt(
        x.var(1, keepdims=True) + ln.eps) * [1, 2, 3] + .5
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    gradient_check.check_backward(ln, x.astype('d'), numpy.random.randn(4, 3),
                                  (ln.gamma, ln.beta), dtype='d', atol=1e-3, rtol=1e-3)


def test_layer_normalization_lazy_size_empty_batch_and_errors():
    ln = L.LayerNormalization()
    assert ln(numpy.zeros((0, 3), 'f')).shape == (0, 3)
    assert ln.gamma.shape == (3,)
    with pytest.raises(type_check.InvalidType):
        L.LayerNormalization()(numpy.zeros((2, 4, 3), 'f'))
    with pytest.raises(TypeError):
        L.LayerNormalization(None, 1e-6, {})
