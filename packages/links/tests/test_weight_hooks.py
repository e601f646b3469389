"""SpectralNormalization and WeightStandardization link hooks."""

import numpy
import pytest
from _refs import DictDeserializer, state_of

import chainer
import chainer.links as L
from chainer.link_hooks import SpectralNormalization, WeightStandardization


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _sigma(W, axis=0):
    matrix = numpy.moveaxis(W, axis, 0).reshape(W.shape[axis], -1).astype('d')
    return numpy.linalg.svd(matrix, compute_uv=False)[0]


@pytest.mark.parametrize('make,shape,axis', [
    (lambda: L.Linear(6, 4), (3, 6), 0),
    (lambda: L.Convolution2D(3, 4, 3), (2, 3, 5, 5), 0),
    (lambda: L.Deconvolution2D(3, 4, 3), (2, 3, 4, 4), 1),
    (lambda: L.EmbedID(5, 4), None, 0),
])
def test_spectral_normalization_divides_by_the_largest_singular_value(make, shape, axis):
    link = make()
    hook = SpectralNormalization(n_power_iteration=60)
    link.add_hook(hook)
    assert link.W_u.shape == (link.W.shape[axis],)
    x = numpy.array([0, 3, 1], 'i') if shape is None else _uniform(*shape)
    y = link(x)
    plain = link.copy('copy')
    plain.delete_hook(hook.name)
    assert not hasattr(plain, 'W_u')
    plain.W.array[...] = link.W.array / _sigma(link.W.array, axis)
    numpy.testing.assert_allclose(y.array, plain(x).array, rtol=1e-4, atol=1e-5)
    assert isinstance(link.W, chainer.Parameter)  # restored after the call


def test_spectral_normalization_gradient_flows_to_the_weight():
    link = L.Linear(3, 2)
    link.add_hook(SpectralNormalization())
    x = _uniform(4, 3)
    link.cleargrads()
    chainer.functions.sum(link(x) ** 2).backward()
    assert numpy.isfinite(link.W.grad).all() and numpy.abs(link.W.grad).sum() > 0


def test_spectral_normalization_u_is_updated_only_in_training():
    link = L.Linear(3, 4)
    hook = SpectralNormalization()
    link.add_hook(hook)
    x = _uniform(2, 3)
    with chainer.using_config('train', False):
        u0 = link.W_u.copy()
        y1 = link(x).array
        y2 = link(x).array
    numpy.testing.assert_array_equal(link.W_u, u0)
    numpy.testing.assert_array_equal(y1, y2)
    link(x)
    assert not numpy.array_equal(link.W_u, u0)
    u1, v1 = link.W_u.copy(), hook.v.copy()
    y3 = link(x).array
    with chainer.using_config('in_recomputing', True):
        y4 = link(x).array
    numpy.testing.assert_array_equal(y3, y4)
    assert not numpy.array_equal(link.W_u, u1)  # y3 refined u; recomputing did not
    u2 = link.W_u.copy()
    with chainer.using_config('in_recomputing', True):
        link(x)
    numpy.testing.assert_array_equal(link.W_u, u2)
    assert v1 is not hook.v


def test_spectral_normalization_gamma_lazy_links_and_errors():
    link = L.Linear(None, 4)
    hook = SpectralNormalization(use_gamma=True, factor=2.0)
    link.add_hook(hook)
    assert not hasattr(link, 'W_u') and not hasattr(link, 'gamma')
    link(_uniform(2, 5))
    assert link.W.shape == (4, 5) and link.W_u.shape == (4,)
    assert link.gamma.shape == () and abs(float(link.gamma.array) - _sigma(link.W.array)) < 1e-4
    assert '/gamma' in dict(link.namedparams())
    link.delete_hook(hook.name)
    assert not hasattr(link, 'gamma') and '/gamma' not in dict(link.namedparams())
    with pytest.raises(ValueError, match="no weight named 'V'"):
        L.Linear(3, 2).add_hook(SpectralNormalization(weight_name='V'))
    with pytest.raises(ValueError, match='output unit'):
        L.Linear(3, 0).add_hook(SpectralNormalization())
    with pytest.raises(NotImplementedError), SpectralNormalization():
        pass
    with pytest.raises(ValueError, match='n_power_iteration'):
        SpectralNormalization(n_power_iteration=0)


def test_spectral_normalization_state_round_trip():
    link = L.Convolution2D(3, 2, 3)
    link.add_hook(SpectralNormalization())
    x = _uniform(1, 3, 4, 4)
    link(x)
    other = L.Convolution2D(3, 2, 3)
    other.add_hook(SpectralNormalization())
    other.serialize(DictDeserializer(state_of(link)))
    numpy.testing.assert_array_equal(other.W_u, link.W_u)
    with chainer.using_config('train', False):
        numpy.testing.assert_array_equal(other(x).array, link(x).array)


@pytest.mark.parametrize('make,shape', [
    (lambda: L.Linear(None, 4), (3, 6)),
    (lambda: L.Convolution2D(None, 4, 3), (2, 3, 5, 5)),
    (lambda: L.Convolution1D(3, 4, 3), (2, 3, 5)),
])
def test_weight_standardization(make, shape):
    link = make()
    hook = WeightStandardization()
    link.add_hook(hook)
    x = _uniform(*shape)
    y = link(x)
    W = link.W.array.astype('d')
    axes = tuple(range(1, W.ndim))
    mean = W.mean(axis=axes, keepdims=True)
    std = numpy.sqrt(((W - mean) ** 2).mean(axis=axes, keepdims=True) + 1e-5)
    plain = link.copy('copy')
    plain.delete_hook(hook.name)
    plain.W.array[...] = (W - mean) / std
    numpy.testing.assert_allclose(y.array, plain(x).array, rtol=1e-4, atol=1e-5)
    assert isinstance(link.W, chainer.Parameter)
    link.cleargrads()
    chainer.functions.sum(link(x) ** 2).backward()
    assert numpy.isfinite(link.W.grad).all()


def test_weight_standardization_errors():
    with pytest.raises(ValueError):
        L.Linear(3, 2).add_hook(WeightStandardization(weight_name='w'))
    with pytest.raises(NotImplementedError), WeightStandardization():
        pass
    assert WeightStandardization(name='ws').name == 'ws'
