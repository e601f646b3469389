"""Core behaviours that the normalization and recurrent links rely on (as in Chainer v7)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.serializer import Serializer


def test_mixed16_reads_as_the_float16_dtype():
    assert numpy.zeros(2).astype(chainer.mixed16).dtype == numpy.float16
    assert numpy.dtype(chainer.mixed16) == numpy.float16
    assert repr(chainer.mixed16) == "dtype('mixed16')"
    assert chainer.mixed16 == 'mixed16'
    assert chainer.get_dtype(chainer.mixed16, map_mixed16=numpy.float32) == numpy.float32


class _Recorder(Serializer):
    def __init__(self):
        self.saved = {}

    def __getitem__(self, key):
        raise AssertionError('a flat mapping has no children')

    def __call__(self, key, value):
        self.saved[key] = value
        return value


def test_serializer_saves_a_plain_mapping_entry_by_entry():
    recorder = _Recorder()
    arrays = {'avg_mean': numpy.ones(2), 'N': numpy.array(3)}
    recorder.save(arrays)
    assert recorder.saved == arrays


def test_serializer_save_still_needs_serialize_for_other_objects():
    with pytest.raises(AttributeError):
        _Recorder().save(object())


def test_numerical_gradients_run_without_type_checks():
    # dtype=float64 casts the inputs but not the float32 bias held by func;
    # F.linear's type check (b.dtype == x.dtype) must not stop the evaluation.
    W = numpy.random.randn(2, 3).astype('f')
    b = numpy.random.randn(2).astype('f')

    def f(x):
        return F.linear(x, W, b)

    x = numpy.random.randn(4, 3).astype('f')
    gradient_check.check_backward(f, x, numpy.random.randn(4, 2).astype('f'), dtype='d',
                                  atol=1e-3, rtol=1e-3)

    seen = []

    def g():
        seen.append(chainer.config.type_check)
        return x * 2

    gradient_check.numerical_grad(g, (x,), (numpy.ones_like(x),))
    assert seen and not any(seen)
    assert chainer.config.type_check
