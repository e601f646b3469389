"""Selections and counts: nonzero, count_nonzero, nanargmax/nanargmin, nansum, accuracy,
tril/triu, copyto; values against NumPy, gradients numerically."""

import math

import numpy
import pytest
from numeric_grad import check_first_and_second_order, check_grad

import chainerx

rng = numpy.random.RandomState(7)


def _np(a):
    return chainerx.to_numpy(a)


def test_nonzero_and_count_nonzero():
    a = numpy.array([[0, 2, 0], [1, 0, 3]], 'int16')
    got = chainerx.nonzero(chainerx.array(a))
    assert len(got) == 2 and all(g.dtype == chainerx.int64 for g in got)
    for g, e in zip(got, numpy.nonzero(a)):
        numpy.testing.assert_array_equal(_np(g), e)
    for axis in (None, 0, 1, (0, 1)):
        c = chainerx.count_nonzero(chainerx.array(a), axis)
        assert c.dtype == chainerx.int64
        numpy.testing.assert_array_equal(_np(c), numpy.count_nonzero(a, axis))


def test_nan_arg_reductions():
    a = numpy.array([[numpy.nan, 2.0, -1.0], [3.0, numpy.nan, 5.0]])
    for name in ('nanargmax', 'nanargmin'):
        for axis in (None, 0, 1):
            got = getattr(chainerx, name)(chainerx.array(a), axis)
            numpy.testing.assert_array_equal(_np(got), getattr(numpy, name)(a, axis))
    with pytest.raises(chainerx.DimensionError):
        chainerx.nanargmax(chainerx.array([[numpy.nan], [1.0]]), 1)


def test_nansum_values_and_gradient():
    a = rng.uniform(-1, 1, (3, 4))
    a[0, 1] = a[2, 3] = numpy.nan
    for axis, keepdims in ((None, False), (1, True), ((0, 1), False)):
        got = chainerx.nansum(chainerx.array(a), axis, keepdims)
        numpy.testing.assert_allclose(_np(got), numpy.nansum(a, axis, keepdims=keepdims))
    x = chainerx.array(a).require_grad()
    chainerx.nansum(x).backward()
    numpy.testing.assert_array_equal(_np(x.grad), numpy.where(numpy.isnan(a), 0, 1))


def test_argmax_over_an_empty_axis_only_raises():
    a = chainerx.zeros((2, 0, 3))
    assert chainerx.argmax(a, 2).shape == (2, 0)
    with pytest.raises(chainerx.DimensionError):
        chainerx.argmax(a, 1)


@pytest.mark.parametrize('ignore_label', [None, 1])
def test_accuracy(ignore_label):
    y = rng.uniform(-1, 1, (6, 3, 2))
    t = rng.randint(0, 3, (6, 2))
    pred = y.argmax(1)
    keep = numpy.ones_like(t, bool) if ignore_label is None else t != ignore_label
    expected = (pred == t)[keep].mean()
    got = chainerx.accuracy(chainerx.array(y, 'float32'), chainerx.array(t, 'int32'),
                            ignore_label)
    assert got.dtype == chainerx.float32 and got.shape == ()
    assert math.isclose(float(got), expected, rel_tol=1e-6)
    all_ignored = chainerx.accuracy(chainerx.array(y), chainerx.zeros((6, 2), 'int32'), 0)
    assert float(all_ignored) == 0.0
    with pytest.raises(chainerx.DtypeError):
        chainerx.accuracy(chainerx.array(y), chainerx.array(t, 'float32'))
    with pytest.raises(chainerx.DimensionError):
        chainerx.accuracy(chainerx.array(y), chainerx.array(t[:3], 'int32'))


@pytest.mark.parametrize('shape', [(3, 3), (4, 3), (2, 3, 4), (3,)])
@pytest.mark.parametrize('k', [0, 1, -1])
def test_tril_triu(shape, k):
    a = rng.uniform(-1, 1, shape)
    for name in ('tril', 'triu'):
        f = getattr(chainerx, name)
        numpy.testing.assert_array_equal(_np(f(chainerx.array(a), k)), getattr(numpy, name)(a, k))
        check_grad(lambda v, f=f: f(v, k), a)


def test_copyto():
    dst = chainerx.zeros((2, 3), 'float32')
    src = chainerx.array([[1, 2, 3]], 'int16')
    where = chainerx.array([[True, False, True]])
    chainerx.copyto(dst, src, where=where)
    numpy.testing.assert_array_equal(_np(dst), [[1, 0, 3], [1, 0, 3]])
    with pytest.raises(chainerx.DtypeError):
        chainerx.copyto(dst, chainerx.ones((2, 3), 'float64'), casting='no')
    with pytest.raises(ValueError):
        chainerx.copyto(dst, src, casting='some_invalid_casting')


def test_erf():
    x = rng.uniform(-2, 2, (3, 4))
    numpy.testing.assert_allclose(_np(chainerx.erf(chainerx.array(x))),
                                  numpy.vectorize(math.erf)(x), rtol=1e-12)
    assert chainerx.erf(chainerx.array([1, 2], 'int8')).dtype == chainerx.float32
    check_first_and_second_order(chainerx.erf, x)
