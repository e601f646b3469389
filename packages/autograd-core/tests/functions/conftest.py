"""Shared checks for function tests: forward vs a NumPy reference, gradients vs
numerical ones, over dtypes with tolerances that fit each dtype.

Use the ``fc`` fixture::

    def test_relu(fc, dtype):
        x = fc.uniform((3, 4), dtype)
        fc.check_forward(F.relu, (x,), numpy.maximum(x, 0), dtype)
        fc.check_backward(F.relu, (fc.away_from(x, 0),), dtype)
        fc.check_double_backward(F.relu, (fc.away_from(x, 0),), dtype)
"""

from __future__ import annotations

import numpy
import pytest

from chainer import Variable, backend, gradient_check, testing

FORWARD_TOL = {
    numpy.float16: {'atol': 1e-3, 'rtol': 1e-2},
    numpy.float32: {'atol': 1e-5, 'rtol': 1e-4},
    numpy.float64: {'atol': 1e-10, 'rtol': 1e-8},
}
GRAD_TOL = {
    numpy.float16: {'atol': 5e-2, 'rtol': 5e-2, 'eps': 2 ** -3},
    numpy.float32: {'atol': 1e-3, 'rtol': 1e-3, 'eps': 1e-3},
    numpy.float64: {'atol': 1e-5, 'rtol': 1e-5, 'eps': 1e-5},
}


def _beside(like, a):
    """``a`` on the device of ``like`` (an array or a Variable)."""
    return backend.get_array_module(getattr(like, 'array', like)).asarray(a)


class FunctionChecker:
    """Helpers bound to one random state."""

    def __init__(self) -> None:
        self.rng = numpy.random.RandomState(0)

    def uniform(self, shape, dtype, low=-1.0, high=1.0):
        """Random array of ``shape`` and ``dtype`` in [low, high)."""
        return self.rng.uniform(low, high, shape).astype(dtype)

    def away_from(self, x, point=0.0, margin=0.1):
        """Move elements of ``x`` within ``margin`` of ``point`` away (for kinks)."""
        x = x.copy()
        near = numpy.abs(x - point) < margin
        x[near] = point + margin * 2 * numpy.where(x[near] >= point, 1, -1)
        return x

    def noncontiguous(self, x):
        """A non-contiguous array equal to ``x``."""
        if x.ndim == 0:
            return x
        big = numpy.empty(x.shape[:-1] + (x.shape[-1] * 2,), dtype=x.dtype)
        view = big[..., ::2]
        view[...] = x
        assert not view.flags.c_contiguous or x.size <= 1
        return view

    def check_forward(self, fn, inputs, expected, dtype=numpy.float32, **tol):
        """Assert that ``fn(*inputs)`` matches ``expected`` (array or tuple)."""
        outs = fn(*[Variable(x) if isinstance(x, numpy.ndarray) else x for x in inputs])
        outs = outs if isinstance(outs, tuple) else (outs,)
        expected = expected if isinstance(expected, tuple) else (expected,)
        assert len(outs) == len(expected)
        t = dict(FORWARD_TOL[numpy.dtype(dtype).type])
        t.update(tol)
        for y, e in zip(outs, expected):
            assert isinstance(y, Variable)
            assert y.shape == numpy.shape(e), (y.shape, numpy.shape(e))
            if numpy.asarray(e).dtype.kind == 'f':
                assert y.dtype == numpy.asarray(e).dtype or y.dtype == dtype, y.dtype
            testing.assert_allclose(y.array, e, **t)
        return outs

    def _grads(self, fn, inputs, dtype, y_grad):
        outs = fn(*inputs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        if y_grad is None:
            y_grad = tuple(_beside(y, self.uniform(y.shape, y.dtype)) for y in outs)
        return y_grad

    def check_backward(self, fn, inputs, dtype=numpy.float32, y_grad=None, **kw):
        """``check_backward`` with dtype-fitting tolerances; y_grad random if None."""
        y_grad = self._grads(fn, inputs, dtype, y_grad)
        t = dict(GRAD_TOL[numpy.dtype(dtype).type])
        t.update(kw)
        gradient_check.check_backward(fn, tuple(inputs), y_grad, dtype=numpy.float64, **t)

    def check_double_backward(self, fn, inputs, dtype=numpy.float32, y_grad=None,
                              x_grad_grad=None, **kw):
        """``check_double_backward`` with dtype-fitting tolerances and random grads."""
        y_grad = self._grads(fn, inputs, dtype, y_grad)
        if x_grad_grad is None:
            x_grad_grad = tuple(_beside(x, self.uniform(x.shape, x.dtype))
                                for x in inputs if x.dtype.kind == 'f')
        t = dict(GRAD_TOL[numpy.dtype(dtype).type])
        t.update(kw)
        gradient_check.check_double_backward(fn, tuple(inputs), y_grad, x_grad_grad,
                                             dtype=numpy.float64, **t)


@pytest.fixture
def fc():
    return FunctionChecker()


@pytest.fixture(params=[numpy.float16, numpy.float32, numpy.float64],
                ids=['f16', 'f32', 'f64'])
def dtype(request):
    return request.param
