"""Helpers whose behaviour the type-checking pass fixed or pinned down."""

import numpy
import pytest

import chainer
from chainer.reporter import Summary
from chainer.utils import force_type


@pytest.mark.parametrize('dtype', [numpy.float32, 'float32', numpy.dtype('float32')])
def test_force_type_takes_any_dtype_spec(dtype):
    # a scalar becomes a NumPy scalar of the dtype (a name or a type, not only a dtype)
    s = force_type(dtype, 1.5)
    assert type(s) is numpy.float32 and s == 1.5
    a = numpy.arange(3, dtype=numpy.float64)
    b = force_type(dtype, a)
    assert b.dtype == numpy.float32
    numpy.testing.assert_array_equal(b, [0.0, 1.0, 2.0])
    c = numpy.ones(2, numpy.float32)
    assert force_type(dtype, c) is c  # already of the dtype: returned as is


def test_summary_incomplete_load_resets_the_sums():
    class Load(chainer.Deserializer):
        def __getitem__(self, key):
            return self

        def __call__(self, key, value):
            raise KeyError(key)

    s = Summary()
    s.add(4.0)
    with pytest.warns(UserWarning, match='reset'):
        s.serialize(Load())
    s.add(2.0, weight=2)
    assert s.compute_mean() == pytest.approx(2.0)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(2.0) and std == pytest.approx(0.0)


def test_summary_statistics_of_scalars_and_arrays():
    s = Summary()
    for v in (1.0, 3.0):
        s.add(v)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(2.0) and std == pytest.approx(1.0)
    a = Summary()
    a.add(numpy.array([1.0, 2.0]))
    a.add(numpy.array([3.0, 2.0]))
    mean, std = a.make_statistics()
    numpy.testing.assert_allclose(mean, [2.0, 2.0])
    numpy.testing.assert_allclose(std, [1.0, 0.0])
