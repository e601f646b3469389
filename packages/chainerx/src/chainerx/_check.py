"""Gradient checks: backward (and backward of backward) against central differences."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy

from chainerx import _creation, _graph
from chainerx._array import ndarray
from chainerx._device import BackpropId
from chainerx._errors import GradientCheckError

Func = Callable[[tuple[ndarray, ...]], Sequence[ndarray]]


def _host(a: ndarray) -> numpy.ndarray:
    return _creation.to_numpy(a, copy=True).astype(numpy.float64)


def _fresh(values: Sequence[numpy.ndarray], like: Sequence[ndarray],
           bp: BackpropId | None) -> tuple[ndarray, ...]:
    return tuple(_creation.array(v.astype(a.dtype), device=a.device).require_grad(bp)
                 for v, a in zip(values, like))


def _numerical(func: Func, inputs: Sequence[ndarray], grad_outputs: Sequence[ndarray],
               eps: Sequence[ndarray], bp: BackpropId | None) -> list[numpy.ndarray]:
    values = [_host(x) for x in inputs]
    gys = [_host(g) for g in grad_outputs]
    out = []
    for i, (value, e) in enumerate(zip(values, eps)):
        steps = numpy.broadcast_to(_host(e), value.shape)
        grad = numpy.zeros_like(value)
        for j in numpy.ndindex(value.shape):
            total = 0.0
            for sign in (1, -1):
                shifted = [v.copy() for v in values]
                shifted[i][j] += sign * steps[j]
                ys = func(_fresh(shifted, inputs, bp))
                total += sign * sum(float((_host(y) * g).sum()) for y, g in zip(ys, gys))
            grad[j] = total / (2 * steps[j])
        out.append(grad)
    return out


def check_backward(func: Func, inputs: Sequence[ndarray], grad_outputs: Sequence[ndarray],
                   eps: Sequence[ndarray], atol: float = 1e-5, rtol: float = 1e-4,
                   backprop_id: BackpropId | None = None) -> None:
    """Raise GradientCheckError unless the gradients that backprop gives for
    ``func(inputs)`` (weighted by *grad_outputs*) match central differences with steps
    *eps* (one array per input), within *atol* and *rtol*."""
    inputs = tuple(inputs)
    ys = func(inputs)
    gxs = _graph.grad(list(ys), list(inputs), backprop_id, grad_outputs=list(grad_outputs))
    numerical = _numerical(func, inputs, grad_outputs, eps, backprop_id)
    for k, (gx, expected, x) in enumerate(zip(gxs, numerical, inputs)):
        actual = numpy.zeros(x.shape) if gx is None else _host(gx)
        if not numpy.allclose(actual, expected, atol=atol, rtol=rtol):
            raise GradientCheckError(
                f'gradient of input {k} differs from the numerical one:\n'
                f'backprop:\n{actual}\nnumerical:\n{expected}')


def check_double_backward(func: Func, inputs: Sequence[ndarray],
                          grad_outputs: Sequence[ndarray],
                          grad_grad_inputs: Sequence[ndarray], eps: Sequence[ndarray],
                          atol: float = 1e-5, rtol: float = 1e-4,
                          backprop_id: BackpropId | None = None) -> None:
    """:func:`check_backward` of the first-order gradient: the inputs' gradients as a
    function of the inputs and *grad_outputs*, weighted by *grad_grad_inputs*; *eps*
    has one array per input and per output gradient."""
    n = len(inputs)

    def first_order(xs: tuple[ndarray, ...]) -> list[ndarray]:
        ys = func(xs[:n])
        gxs = _graph.grad(list(ys), list(xs[:n]), backprop_id, enable_double_backprop=True,
                          grad_outputs=list(xs[n:]))
        return [_creation.zeros_like(x) if g is None else g for g, x in zip(gxs, xs[:n])]

    check_backward(first_order, tuple(inputs) + tuple(grad_outputs), grad_grad_inputs, eps,
                   atol, rtol, backprop_id)


