"""chainer._jit: the use_numba setting and compiled kernels."""

import numpy
import pytest

import chainer
from chainer import _jit


def test_never_disables_and_a_bad_mode_is_an_error():
    with chainer.using_config('use_numba', 'never'):
        assert not _jit.enabled()
    with chainer.using_config('use_numba', 'sometimes'), \
            pytest.raises(ValueError, match="use_numba must be one of"):
        _jit.enabled()


def test_without_numba_auto_is_off_and_always_is_an_error(monkeypatch):
    monkeypatch.setattr(_jit, '_numba', None)
    monkeypatch.setattr(_jit, '_numba_error', ImportError('no numba here'))
    with chainer.using_config('use_numba', 'auto'):
        assert not _jit.enabled()
    with chainer.using_config('use_numba', 'always'), \
            pytest.raises(RuntimeError, match=r'pip install chainer-autograd-core\[jit\]'):
        _jit.enabled()
    kernel = _jit.Kernel(_running_sum)
    with pytest.raises(RuntimeError, match='needs Numba'):
        kernel(numpy.zeros(2), numpy.zeros(2))


def test_default_follows_the_environment():
    assert chainer.global_config.use_numba in _jit.MODES


def _running_sum(x, out):  # a kernel: module level, so that Numba can cache it
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total


def test_a_kernel_compiles_and_equals_numpy():
    pytest.importorskip('numba')
    kernel = _jit.kernel(_running_sum)
    x = numpy.arange(10, dtype=numpy.float64)
    out = numpy.empty_like(x)
    kernel(x, out)
    numpy.testing.assert_array_equal(out, numpy.cumsum(x))
    assert kernel.compile() is kernel.compile()  # compiled once
