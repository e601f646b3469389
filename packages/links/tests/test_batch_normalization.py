"""Tests of L.BatchNormalization and L.BatchRenormalization."""

import numpy
import pytest
from dict_serializers import DictLoader, DictSaver

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import initializers, testing
from chainer.utils import type_check


def _reference(x, gamma, beta, mean, var, eps, axes):
    keep = tuple(slice(None) if i not in axes else None for i in range(x.ndim))
    return gamma[keep] * (x - mean[keep]) / numpy.sqrt(var[keep] + eps) + beta[keep]


@testing.parameterize(*testing.product({
    'shape_axis': [((5, 3), None), ((4, 3, 2, 2), None), ((5, 4, 3), (0, 1)),
                   ((6, 4), 0)],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}])
class TestBatchNormalizationLink(testing.LinkTestCase):
    """Training-mode forward against NumPy, gradients of x, gamma and beta."""

    param_names = ('gamma', 'beta')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        x_ndim = len(self.shape)
        if self.axis is None:
            self.aggr = (0,) + tuple(range(2, x_ndim))
        else:
            self.aggr = (self.axis,) if isinstance(self.axis, int) else self.axis
        self.param_shape = tuple(s for i, s in enumerate(self.shape) if i not in self.aggr)

    def generate_params(self):
        gamma = numpy.random.uniform(.5, 1, self.param_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.param_shape).astype(self.dtype)
        return gamma, beta

    def create_link(self, initializers):
        gamma, beta = initializers
        size = self.param_shape if self.axis is None else None
        return L.BatchNormalization(size, axis=self.axis, dtype=self.dtype,
                                    initial_gamma=gamma, initial_beta=beta)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward_expected(self, link, inputs):
        x, = inputs
        mean = x.mean(axis=self.aggr)
        var = x.var(axis=self.aggr)
        y = _reference(x, link.gamma.array, link.beta.array, mean, var, link.eps, self.aggr)
        return y.astype(self.dtype),


def test_running_statistics_follow_decay_and_unbiased_variance():
    bn = L.BatchNormalization(3, decay=0.8)
    x = numpy.random.randn(6, 3).astype('f')
    bn(x)
    numpy.testing.assert_allclose(bn.avg_mean, 0.2 * x.mean(0), rtol=1e-5, atol=1e-6)
    unbiased = x.var(0) * 6 / 5
    numpy.testing.assert_allclose(bn.avg_var, 0.8 + 0.2 * unbiased, rtol=1e-5)
    assert bn.N == 0


def test_finetune_averages_all_batches():
    bn = L.BatchNormalization(2)
    xs = [numpy.random.randn(5, 2).astype('f') for _ in range(3)]
    for x in xs:
        bn(x, finetune=True)
    assert bn.N == 3
    numpy.testing.assert_allclose(bn.avg_mean, numpy.mean([x.mean(0) for x in xs], 0),
                                  rtol=1e-5, atol=1e-6)
    bn.start_finetuning()
    assert bn.N == 0


def test_test_mode_uses_running_statistics_and_keeps_them():
    bn = L.BatchNormalization(3, initial_avg_mean=numpy.array([1., 2., 3.], 'f'),
                              initial_avg_var=numpy.array([4., 1., .25], 'f'),
                              initial_gamma=2, initial_beta=.5)
    x = numpy.random.randn(4, 3).astype('f')
    with chainer.using_config('train', False):
        y = bn(x)
    expected = 2 * (x - [1, 2, 3]) / numpy.sqrt(numpy.array([4, 1, .25]) + bn.eps) + .5
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5)
    numpy.testing.assert_array_equal(bn.avg_mean, [1, 2, 3])


def test_without_gamma_and_beta():
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert bn.gamma is None and bn.beta is None
    assert [name for name, _ in bn.namedparams()] == []
    x = numpy.random.randn(5, 3, 2).astype('f')
    y = bn(x)
    expected = (x - x.mean((0, 2), keepdims=True)) / numpy.sqrt(
        x.var((0, 2), keepdims=True) + bn.eps)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)


def test_lazy_size_from_axis():
    bn = L.BatchNormalization(axis=(0, 2, 3))
    assert bn.avg_mean is None and bn.gamma.array is None
    bn(numpy.random.randn(2, 5, 3, 3).astype('f'))
    assert bn.avg_mean.shape == bn.gamma.shape == bn.beta.shape == (5,)
    with pytest.raises(type_check.InvalidType):
        bn(numpy.zeros((2, 4, 3, 3), 'f'))


def test_mixed16_keeps_float32_parameters():
    with chainer.using_config('dtype', chainer.mixed16):
        bn = L.BatchNormalization(3)
    assert bn.gamma.dtype == numpy.float32 and bn.avg_mean.dtype == numpy.float32
    y = bn(numpy.random.randn(4, 3).astype(numpy.float16))
    assert y.dtype == numpy.float16
    assert numpy.dtype(chainer.mixed16) == numpy.float16


def test_initializers_given_get_the_parameter_dtype():
    bn = L.BatchNormalization(3, dtype=numpy.float64, initial_gamma=initializers.Constant(2))
    assert bn.gamma.dtype == numpy.float64
    numpy.testing.assert_array_equal(bn.gamma.array, [2, 2, 2])


def test_bad_arguments():
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()
    with pytest.raises(TypeError, match='size'):
        L.BatchNormalization({})
    bn = L.BatchNormalization(3)
    x = numpy.zeros((2, 3), 'f')
    with pytest.raises(ValueError, match='test argument'):
        bn(x, test=True)
    with pytest.raises(TypeError):
        bn(x, True)
    with pytest.raises(TypeError, match='unknown'):
        bn(x, unknown=1)
    with pytest.raises(type_check.InvalidType):
        bn(numpy.zeros((2, 4), 'f'))


def test_forget_does_not_update_statistics_twice():
    bn1 = L.BatchNormalization(3)
    bn2 = bn1.copy('copy')
    x = numpy.random.randn(4, 3).astype('f')
    F.sum(bn1(x)).backward()
    F.sum(F.forget(bn2, chainer.Variable(x))).backward()
    numpy.testing.assert_allclose(bn1.avg_mean, bn2.avg_mean)
    numpy.testing.assert_allclose(bn1.avg_var, bn2.avg_var)
    numpy.testing.assert_allclose(bn1.gamma.grad, bn2.gamma.grad, rtol=1e-5, atol=1e-6)


def test_serialize_round_trip_keeps_statistics_and_counter():
    bn = L.BatchNormalization(axis=0)
    bn(numpy.random.rand(4, 3).astype('f'), finetune=True)
    saved = {}
    bn.serialize(DictSaver(saved))
    assert sorted(saved) == ['N', 'avg_mean', 'avg_var', 'beta', 'gamma']
    other = L.BatchNormalization(3)
    other.serialize(DictLoader(saved))
    numpy.testing.assert_array_equal(other.avg_mean, bn.avg_mean)
    numpy.testing.assert_array_equal(other.avg_var, bn.avg_var)
    assert other.N == 1


def test_statistics_move_with_the_link_and_copy():
    bn = L.BatchNormalization(3)
    copied = bn.copy('copy')
    copied.avg_mean[...] = 5
    assert (bn.avg_mean == 0).all()
    bn.to_device('@numpy')
    assert isinstance(bn.avg_mean, numpy.ndarray)


def test_batch_renormalization_forward_against_numpy():
    rmax, dmax = 2., 1.
    brn = L.BatchRenormalization(3, rmax=rmax, dmax=dmax, eps=1e-5)
    brn.avg_mean[...] = [.5, -.5, 0]
    brn.avg_var[...] = [.2, 4., 1.]
    x = numpy.random.randn(8, 3).astype('f')
    running_std = numpy.sqrt(brn.avg_var + brn.eps)
    mean, std = x.mean(0), numpy.sqrt(x.var(0) + brn.eps)
    r = numpy.clip(std / running_std, 1 / rmax, rmax)
    d = numpy.clip((mean - brn.avg_mean) / running_std, -dmax, dmax)
    y = brn(x)
    numpy.testing.assert_allclose(y.array, (x - mean) / std * r + d, rtol=1e-4, atol=1e-5)
    with chainer.using_config('train', False):
        y = brn(x)
    numpy.testing.assert_allclose(
        y.array, (x - brn.avg_mean) / numpy.sqrt(brn.avg_var + brn.eps), rtol=1e-4)


def test_batch_renormalization_under_forget_matches_plain_call():
    brn1 = L.BatchRenormalization(3, rmax=2., dmax=1.)
    brn1.avg_mean[...] = [1, -1, .5]
    brn2 = brn1.copy('copy')
    x = numpy.random.randn(5, 3).astype('f')
    F.sum(brn1(x) ** 2).backward()
    F.sum(F.forget(brn2, chainer.Variable(x)) ** 2).backward()
    numpy.testing.assert_allclose(brn1.avg_mean, brn2.avg_mean, rtol=1e-6)
    numpy.testing.assert_allclose(brn1.gamma.grad, brn2.gamma.grad, rtol=1e-4, atol=1e-5)
