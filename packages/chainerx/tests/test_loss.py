"""Element-wise losses: values against NumPy formulas, gradients of the first and second
order numerically."""

import numpy
import pytest
from numeric_grad import check_first_and_second_order

import chainerx

rng = numpy.random.RandomState(6)


def _np(a):
    return chainerx.to_numpy(a)


def test_errors_and_kl():
    x, t = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    cases = [
        (chainerx.squared_error, (x - t) ** 2),
        (chainerx.absolute_error, numpy.abs(x - t)),
        (chainerx.gaussian_kl_divergence, (x ** 2 + numpy.exp(t) - t - 1) / 2),
    ]
    for f, expected in cases:
        numpy.testing.assert_allclose(_np(f(chainerx.array(x), chainerx.array(t))), expected,
                                      rtol=1e-12)
        check_first_and_second_order(f, x, t)
    mixed = chainerx.squared_error(chainerx.array(x, 'float16'), chainerx.array(t, 'float32'))
    assert mixed.dtype == chainerx.float32
    with pytest.raises(chainerx.DimensionError):
        chainerx.squared_error(chainerx.array(x), chainerx.array(t[:2]))


@pytest.mark.parametrize('delta', [0.1, 0.5])
def test_huber_loss(delta):
    x, t = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    d = x - t
    d[numpy.abs(numpy.abs(d) - delta) < 1e-2] += 0.05  # away from the joint
    x = t + d
    expected = numpy.where(numpy.abs(d) <= delta, d ** 2 / 2, delta * (numpy.abs(d) - delta / 2))
    f = lambda a, b: chainerx.huber_loss(a, b, delta)  # noqa: E731
    numpy.testing.assert_allclose(_np(f(chainerx.array(x), chainerx.array(t))), expected,
                                  rtol=1e-12)
    check_first_and_second_order(f, x, t)


@pytest.mark.parametrize('norm', [1.0, 2.0])
def test_hinge(norm):
    x = rng.uniform(-2, 2, (4, 3))
    t = numpy.array([0, 2, 1, 2])
    sign = numpy.ones_like(x)
    sign[numpy.arange(4), t] = -1
    margin = 1 + sign * x
    margin[numpy.abs(margin) < 1e-2] += 0.05
    x = (margin - 1) * sign
    expected = numpy.maximum(margin, 0) ** norm
    ct = chainerx.array(t, 'int8')
    f = lambda a: chainerx.hinge(a, ct, norm)  # noqa: E731
    numpy.testing.assert_allclose(_np(f(chainerx.array(x))), expected, rtol=1e-12)
    check_first_and_second_order(f, x)
    with pytest.raises(ValueError):
        chainerx.hinge(chainerx.array(x), ct, 3.0)
    with pytest.raises(chainerx.DimensionError):
        chainerx.hinge(chainerx.array(x), chainerx.array(t[:2]))
