"""v7's helpers of spectral normalization and DecorrelatedBatchNormalization."""

import warnings

import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.link_hooks import spectral_normalization as sn
from chainer.links.normalization import decorrelated_batch_normalization as dbn


def test_l2normalize():
    v = numpy.array([3., 4.])
    numpy.testing.assert_allclose(sn.l2normalize(numpy, v, 0.), [0.6, 0.8])
    numpy.testing.assert_allclose(sn.l2normalize(numpy, v, 5.), [0.3, 0.4])
    numpy.testing.assert_array_equal(sn.l2normalize(numpy, numpy.zeros(2), 1e-12), [0, 0])


def test_power_iteration_finds_the_largest_singular_value():
    rng = numpy.random.RandomState(0)
    W = rng.normal(size=(5, 4))
    u0 = rng.normal(size=5)
    u, v = sn.update_approximate_vectors(chainer.Variable(W), u0, 100, 1e-12)
    U, s, Vt = numpy.linalg.svd(W)
    assert u.shape == (5,) and v.shape == (4,)
    assert abs(abs(u @ U[:, 0]) - 1) < 1e-8 and abs(abs(v @ Vt[0]) - 1) < 1e-8
    sigma = sn.calculate_max_singular_value(W, u, v)
    assert sigma.shape == ()
    numpy.testing.assert_allclose(sigma.array, s[0], rtol=1e-8)
    # one step: v = normalize(u0 W), u = normalize(W v)
    u1, v1 = sn.update_approximate_vectors(W, u0, 1, 0.)
    v_ref = u0 @ W / numpy.linalg.norm(u0 @ W)
    numpy.testing.assert_allclose(v1, v_ref)
    numpy.testing.assert_allclose(u1, W @ v_ref / numpy.linalg.norm(W @ v_ref))
    with pytest.raises(ValueError):
        sn.update_approximate_vectors(W, u0, 0, 1e-12)


def test_max_singular_value_gradient_is_u_v_transposed():
    rng = numpy.random.RandomState(1)
    W = rng.normal(size=(3, 2))
    u, v = rng.normal(size=3), rng.normal(size=2)
    Wv = chainer.Variable(W)
    sn.calculate_max_singular_value(Wv, u, v).backward()
    numpy.testing.assert_allclose(Wv.grad, numpy.outer(u, v))
    gradient_check.check_backward(lambda w: sn.calculate_max_singular_value(w, u, v), W,
                                  numpy.array(rng.normal()))


def test_fix_avg_statistics_adds_the_group_axis():
    mean = numpy.arange(3.)
    with pytest.warns(UserWarning, match='each of the 2 groups'):
        fixed = dbn.fix_avg_mean(mean, 2)
    numpy.testing.assert_array_equal(fixed, [[0, 1, 2], [0, 1, 2]])
    fixed[0, 0] = 9  # a copy, not a view of the loaded array
    assert mean[0] == 0
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert dbn.fix_avg_projection(numpy.eye(2), 1).shape == (1, 2, 2)
        grouped = numpy.zeros((4, 2, 2))
        assert dbn.fix_avg_projection(grouped, 4) is grouped
    with pytest.raises(ValueError):
        dbn.fix_avg_mean(numpy.zeros((1, 2, 3)), 1)
    with pytest.raises(ValueError):
        dbn.fix_avg_projection(numpy.zeros(3), 1)
