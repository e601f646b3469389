"""Numerical gradient checking of functions and their double backward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer.variable import Variable


class NondifferentiableError(Exception):
    """The function looks non-differentiable at the given point."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def numerical_grad(f: Callable[[], Any], inputs: Any, grad_outputs: Any, eps: float = 1e-3,
                   detect_nondifferentiable: bool = False, diff_atol: float = 0,
                   diff_rtol: float = 1e-2, center_outputs: Any = None) -> tuple[Any, ...]:
    """Central-difference gradient of ``f`` w.r.t. each array in ``inputs``.

    ``f`` is called without arguments and reads ``inputs`` (which are modified
    in place and restored). The result is the gradient of
    ``sum(grad_outputs[i] * f()[i])``.

    Args:
        f: function returning a tuple of arrays.
        inputs: arrays to perturb.
        grad_outputs: weights of the outputs (None entries count as zero).
        eps: the step.
        detect_nondifferentiable: raise when the one-sided differences disagree.
        diff_atol, diff_rtol: tolerances for that detection.
        center_outputs: the outputs at the center (computed when None).

    Raises:
        NondifferentiableError: when non-differentiability is detected.
    """
    if eps <= 0:
        raise ValueError('eps must be positive')
    grads = []
    for x in inputs:
        g = numpy.zeros(x.shape, dtype=numpy.float64)
        xh = x
        flat_index = numpy.ndindex(*x.shape) if x.ndim else [()]
        for idx in flat_index:
            orig = xh[idx].copy() if hasattr(xh[idx], 'copy') else xh[idx]
            vals = []
            for k in ((-1, 1) if not detect_nondifferentiable else (-2, -1, 1, 2)):
                xh[idx] = orig + k * eps
                ys = _as_tuple(f())
                vals.append(sum(float((cuda.to_cpu(getattr(gy, 'array', gy)).astype(
                    numpy.float64) * cuda.to_cpu(getattr(y, 'array', y)).astype(
                    numpy.float64)).sum()) for y, gy in zip(ys, grad_outputs) if gy is not None))
            xh[idx] = orig
            if detect_nondifferentiable:
                left = (vals[1] - vals[0]) / eps
                right = (vals[3] - vals[2]) / eps
                center = (vals[2] - vals[1]) / (2 * eps)
                if not numpy.isclose(left, right, atol=diff_atol, rtol=diff_rtol):
                    raise NondifferentiableError(
                        f'non-differentiable point at index {idx}: left slope {left}, '
                        f'right slope {right}, center {center}')
                g[idx] = center
            else:
                g[idx] = (vals[1] - vals[0]) / (2 * eps)
        grads.append(g)
    return tuple(grads)


def _prepare(x_data: Any, dtype: Any) -> list[Any]:
    xs = []
    for x in _as_tuple(x_data):
        if isinstance(x, Variable):
            x = x.array
        if dtype is not None and x.dtype.kind == 'f':
            x = x.astype(dtype)
        xs.append(x)
    return xs


def check_backward(func: Callable[..., Any], x_data: Any, y_grad: Any, params: Any = (),
                   eps: float = 1e-3, atol: float = 1e-5, rtol: float = 1e-4,
                   no_grads: Any = None, dtype: Any = None,
                   detect_nondifferentiable: bool = False) -> None:
    """Check the backward of ``func`` against numerical gradients.

    The check compares the directional derivative along a random direction:
    ``sum(analytic_grad * d)`` against the central difference of
    ``sum(y_grad * func(x + t d))``, over the inputs and ``params``.

    Args:
        func: function taking Variables and returning a Variable or a tuple.
        x_data: input array or tuple of arrays.
        y_grad: output gradient(s); None for a scalar output (1 is used).
        params: Parameters (or Variables) also checked, e.g. a link's weights.
        eps: the finite-difference step.
        atol, rtol: tolerances.
        no_grads: per-input flags: True skips that input (default: skip
            non-float inputs).
        dtype: dtype used for the numerical computation (e.g. float64).
        detect_nondifferentiable: raise when a non-differentiable point is hit.

    Raises:
        AssertionError: when the gradients do not match.
        NondifferentiableError: see ``detect_nondifferentiable``.
    """
    x_arrays = [getattr(x, 'array', x) for x in _as_tuple(x_data)]
    params = _as_tuple(params)
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_arrays]
    elif len(no_grads) != len(x_arrays):
        raise ValueError('no_grads must have one entry per input')
    xs = [Variable(x, requires_grad=not ng) for x, ng in zip(x_arrays, no_grads)]
    ys = _as_tuple(func(*xs))
    ys = [y if isinstance(y, Variable) else Variable(y) for y in ys]
    if y_grad is None:
        if len(ys) != 1 or ys[0].size != 1:
            raise ValueError('y_grad must be given unless the output is a single scalar')
        gys = [None]
    else:
        gys = list(_as_tuple(y_grad))
        if len(gys) != len(ys):
            raise ValueError(f'{len(gys)} y_grad arrays for {len(ys)} outputs')
    for y, gy in zip(ys, gys):
        if gy is not None and gy.shape != y.shape:
            raise ValueError(f'y_grad shape {gy.shape} does not match output shape {y.shape}')

    for p in params:
        p.cleargrad()
    targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
    grad_outputs = [Variable(gy) if gy is not None else None for gy in gys]
    if any(gy is None for gy in gys):
        grad_outputs = [None if gy is None else g for gy, g in zip(gys, grad_outputs)]
    analytic = chainer.grad(ys, targets, grad_outputs=[
        g if g is not None else None for g in grad_outputs]) if targets else []

    xp = backend.get_array_module(*x_arrays)
    rng = numpy.random.RandomState(0)
    directions = []
    for t in targets:
        d = rng.normal(size=t.shape).astype(numpy.float64)
        d /= max(numpy.sqrt((d * d).sum()), 1e-12) if d.size else 1
        directions.append(d)

    analytic_dot = 0.0
    for g, d in zip(analytic, directions):
        if g is None:
            continue
        analytic_dot += float((cuda.to_cpu(g.array).astype(numpy.float64) * d).sum())

    work_dtype = numpy.dtype(dtype) if dtype is not None else None
    base_x = [x.astype(work_dtype) if work_dtype is not None and x.dtype.kind == 'f'
              else x.copy() for x in x_arrays]
    base_p = [p.array.copy() for p in params]
    gys_num = [None if gy is None else gy for gy in gys]
    if len(gys_num) == 1 and gys_num[0] is None:
        gys_num = [numpy.ones((), dtype=numpy.float64)]

    def eval_at(t: float) -> float:
        k = 0
        inputs = []
        for x, ng in zip(base_x, no_grads):
            if ng:
                inputs.append(x)
            else:
                step = xp.asarray(directions[k] * t).astype(x.dtype)
                inputs.append(xp.asarray(x + step))
                k += 1
        for p, b in zip(params, base_p):
            p.array = xp.asarray(b + xp.asarray(directions[k] * t).astype(b.dtype))
            k += 1
        outs = _as_tuple(func(*[Variable(x) for x in inputs]))
        total = 0.0
        for y, gy in zip(outs, gys_num):
            if gy is None:
                continue
            ya = cuda.to_cpu(getattr(y, 'array', y)).astype(numpy.float64)
            total += float((ya * cuda.to_cpu(gy).astype(numpy.float64)).sum())
        return total

    try:
        if detect_nondifferentiable:
            f = [eval_at(k * eps) for k in (-2, -1, 1, 2)]
            left = (f[1] - f[0]) / eps
            right = (f[3] - f[2]) / eps
            if not numpy.isclose(left, right, atol=atol, rtol=max(rtol, 1e-2)):
                raise NondifferentiableError(
                    f'non-differentiable point: left slope {left}, right slope {right}')
            numeric_dot = (f[2] - f[1]) / (2 * eps)
        else:
            numeric_dot = (eval_at(eps) - eval_at(-eps)) / (2 * eps)
    finally:
        for p, b in zip(params, base_p):
            p.array = b

    if not numpy.isclose(analytic_dot, numeric_dot, atol=atol, rtol=rtol):
        raise AssertionError(
            'check_backward failed: the directional derivative from backward '
            f'({analytic_dot!r}) differs from the numerical one ({numeric_dot!r}); '
            f'atol={atol}, rtol={rtol}, eps={eps}')


def check_double_backward(func: Callable[..., Any], x_data: Any, y_grad: Any,
                          x_grad_grad: Any, params: Any = (), params_grad_grad: Any = (),
                          eps: float = 1e-3, atol: float = 1e-4, rtol: float = 1e-3,
                          no_grads: Any = None, dtype: Any = None,
                          detect_nondifferentiable: bool = False) -> None:
    """Check the second-order gradients of ``func`` numerically.

    The first-order gradient (with ``enable_double_backprop``) is treated as
    a function of the inputs and ``y_grad``, and its backward is checked with
    :func:`check_backward` against ``x_grad_grad``.

    Args:
        func: the function.
        x_data: input array(s).
        y_grad: output gradient(s).
        x_grad_grad: gradients of the first-order input gradients.
        params: Parameters whose gradients are part of the first-order output.
        params_grad_grad: gradients of the parameters' first-order gradients.
        eps, atol, rtol, no_grads, dtype, detect_nondifferentiable: as in
            :func:`check_backward`.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    params = _as_tuple(params)
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [getattr(x, 'dtype', numpy.dtype('f')).kind != 'f' for x in x_data]

    def first_order(*args: Any) -> Any:
        xs = args[:n_x]
        gys = args[n_x:]
        ys = _as_tuple(func(*xs))
        targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
        gxs = chainer.grad(list(ys), targets, grad_outputs=list(gys),
                           enable_double_backprop=True)
        out = []
        for g, t in zip(gxs, targets):
            if g is None:
                g = Variable(backend.get_array_module(t.array).zeros_like(t.array))
            out.append(g)
        return tuple(out)

    ggs = tuple(_as_tuple(x_grad_grad)) + tuple(_as_tuple(params_grad_grad))
    check_backward(first_order, x_data + y_grad, ggs, params=params, eps=eps, atol=atol,
                   rtol=rtol, no_grads=list(no_grads) + [False] * len(y_grad), dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
