"""Numerical gradients for chainerx's own tests."""

from __future__ import annotations

import numpy

import chainerx


def numerical_grad(f, x: numpy.ndarray, eps: float = 1e-3) -> numpy.ndarray:
    """Central differences of scalar-valued *f* (NumPy in, float out) at *x* (float64)."""
    x = x.astype(numpy.float64).copy()
    g = numpy.zeros_like(x)
    for i in numpy.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        g[i] = (up - down) / (2 * eps)
    return g


def check_grad(func, *inputs: numpy.ndarray, atol: float = 1e-4, rtol: float = 1e-3) -> None:
    """The gradient of ``sum(func(*xs) * w)`` by backward matches central differences."""
    rng = numpy.random.RandomState(0)
    out = func(*(chainerx.array(x) for x in inputs))
    w = rng.uniform(-1, 1, out.shape)

    for k, x in enumerate(inputs):
        def f(v, k=k):
            args = [chainerx.array(a) for a in inputs]
            args[k] = chainerx.array(v)
            return float((chainerx.to_numpy(func(*args)) * w).sum())

        expected = numerical_grad(f, x)
        xs = [chainerx.array(a).require_grad() for a in inputs]
        y = func(*xs)
        (y * chainerx.array(w, y.dtype)).sum().backward()
        numpy.testing.assert_allclose(chainerx.to_numpy(xs[k].grad), expected, atol=atol,
                                      rtol=rtol)


def check_first_and_second_order(func, *inputs: numpy.ndarray, eps: float = 1e-3,
                                 atol: float = 1e-4, rtol: float = 1e-3,
                                 double: bool = True) -> None:
    """``chainerx.check_backward`` (and ``check_double_backward``) of ``func(*xs)``, a
    single array, at *inputs* with random output gradients (and gradients of the input
    gradients)."""
    rng = numpy.random.RandomState(2)

    def f(xs):
        return (func(*xs),)

    out = func(*(chainerx.array(x) for x in inputs))
    gy = chainerx.array(rng.uniform(-1, 1, out.shape), out.dtype)
    steps = [chainerx.full(x.shape, eps, chainerx.array(x).dtype) for x in inputs]
    chainerx.check_backward(f, [chainerx.array(x).require_grad() for x in inputs], [gy],
                            steps, atol=atol, rtol=rtol)
    if double:
        ggx = [chainerx.array(rng.uniform(-1, 1, x.shape), chainerx.array(x).dtype)
               for x in inputs]
        chainerx.check_double_backward(
            f, [chainerx.array(x).require_grad() for x in inputs], [gy.require_grad()], ggx,
            steps + [chainerx.full(out.shape, eps, out.dtype)], atol=atol, rtol=rtol)
