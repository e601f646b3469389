"""Numerical gradient checking of functions and their double backward.

:func:`check_backward` compares the gradients computed by backpropagation with
finite differences along a random direction; :func:`check_double_backward`
does the same for the gradients of the gradients; :func:`numerical_grad`
computes elementwise central differences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer.testing.array import assert_allclose
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray, VariableOrArray

__all__ = [
    'NondifferentiableError',
    'assert_allclose',
    'check_backward',
    'check_double_backward',
    'numerical_grad',
]

# Diagnostics of a failed check include elementwise numerical gradients when
# the checked arrays hold at most this many elements in all.
_DIAGNOSTIC_SIZE = 256


class NondifferentiableError(Exception):
    """The function looks non-differentiable at the given point."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _host64(x: Any) -> numpy.ndarray:
    """``x`` (array, Variable or scalar) as a float64 NumPy array."""
    x = getattr(x, 'array', x)
    return numpy.asarray(cuda.to_cpu(x) if not numpy.isscalar(x) else x, dtype=numpy.float64)


def _weighted_sum(outputs: Any, grad_outputs: Sequence[Any]) -> float:
    """``sum_i <grad_outputs[i], outputs[i]>`` in float64 (None weights count as zero)."""
    outputs = _as_tuple(outputs)
    if len(outputs) != len(grad_outputs):
        raise ValueError(f'the function returned {len(outputs)} outputs for '
                         f'{len(grad_outputs)} output gradients')
    total = 0.0
    for y, gy in zip(outputs, grad_outputs):
        if gy is None or y is None:
            continue
        total += float((_host64(y) * _host64(gy)).sum())
    return total


# Points sampled by the non-differentiability detection, in units of eps.
_DETECT_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)


class _InvalidEpsError(ValueError, AssertionError):
    """A non-positive ``eps`` (an AssertionError as in Chainer v7, and a ValueError)."""


def _check_eps(eps: float) -> None:
    if not eps > 0:
        raise _InvalidEpsError(f'eps must be positive, not {eps}')


def _host_outputs(outputs: Any) -> list[numpy.ndarray]:
    """Copies of the outputs of a function as host arrays (None outputs are skipped).

    Copies, since an output may share memory with an input perturbed afterwards.
    """
    return [numpy.array(cuda.to_cpu(getattr(y, 'array', y)))
            for y in _as_tuple(outputs) if y is not None]


def _nondifferentiable_reason(samples: list[list[numpy.ndarray]], diff_atol: float,
                              diff_rtol: float) -> str | None:
    """Why the outputs sampled across a point show a kink or a jump (None if smooth).

    ``samples[k]`` holds the outputs at the k-th point of ``_DETECT_STEPS``. An output
    element is non-differentiable there when it is finite at some points and not at
    others, or when a quadratic fitted to its samples leaves an RMS residual above
    ``diff_atol + diff_rtol * (its range over the points)`` plus a few units of
    rounding of the output dtype.
    """
    ulp = max((numpy.finfo(y.dtype).eps for y in samples[0] if y.dtype.kind in 'fc'),
              default=numpy.finfo(numpy.float64).eps)
    ys = numpy.stack([numpy.concatenate([numpy.ravel(y).astype(numpy.float64) for y in ys_k])
                      if ys_k else numpy.zeros(0) for ys_k in samples])
    finite = numpy.isfinite(ys)
    if (finite != finite[0]).any():
        return 'the output is finite on one side of the point and not on the other'
    ys = ys[:, finite.all(axis=0)]  # an output non-finite all around is left alone
    if ys.size == 0:
        return None
    t = numpy.asarray(_DETECT_STEPS)
    coef = numpy.polynomial.polynomial.polyfit(t, ys, 2)
    residual = numpy.sqrt(((ys - numpy.polynomial.polynomial.polyval(t, coef).T) ** 2)
                          .mean(axis=0))
    span = ys.max(axis=0) - ys.min(axis=0)
    tol = diff_atol + diff_rtol * span + 4 * ulp * numpy.abs(ys).max(axis=0)
    worst = int(numpy.argmax(residual - tol))
    if residual[worst] > tol[worst]:
        return (f'a quadratic fits the output poorly across the point (RMS residual '
                f'{residual[worst]!r} over a range of {span[worst]!r})')
    return None


def numerical_grad(f: Callable[[], Any], inputs: NdArray | Sequence[NdArray | None],
                   grad_outputs: NdArray | Sequence[NdArray | None], eps: float = 1e-3,
                   detect_nondifferentiable: bool = False, diff_atol: float = 0,
                   diff_rtol: float = 1e-2,
                   center_outputs: NdArray | Sequence[NdArray | None] | None = None
                   ) -> tuple[Any, ...]:
    """Central-difference gradient of ``f`` with respect to each array in ``inputs``.

    ``f`` takes no argument and reads ``inputs``, which are modified in place
    (one element at a time) and restored. The result is the gradient of
    ``sum_i sum(grad_outputs[i] * f()[i])``.

    With ``detect_nondifferentiable``, ``f`` is also sampled at ``x +- eps/2`` and
    at ``x`` for each element: an output that is finite on one side and not on the
    other, or that a quadratic does not fit across the points (RMS residual above
    ``diff_atol + diff_rtol * range``), makes the point non-differentiable.

    Args:
        f: function returning an array, a Variable or a tuple of them.
        inputs: arrays to perturb (None entries get a None gradient).
        grad_outputs: weights of the outputs (None entries count as zero).
        eps: the finite-difference step (positive).
        detect_nondifferentiable: raise when the left and right one-sided
            derivatives of an element disagree.
        diff_atol, diff_rtol: tolerances of that detection.
        center_outputs: the outputs of ``f`` at the unperturbed inputs, used by
            the detection (computed when None).

    Returns:
        A tuple of gradient arrays with the dtype, array module and device of
        the corresponding inputs.

    Raises:
        NondifferentiableError: when non-differentiability is detected.
        AssertionError, ValueError: when ``eps`` is not positive.
    """
    _check_eps(eps)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs)
    center: list[numpy.ndarray] = []  # the outputs at the point (with detection)
    if detect_nondifferentiable:
        center = _host_outputs(f() if center_outputs is None else center_outputs)
        steps = tuple(k for k in _DETECT_STEPS if k != 0)
    else:
        steps = (-1.0, 1.0)
    grads: list[Any] = []
    for i, x in enumerate(inputs):
        if x is None:
            grads.append(None)
            continue
        if x.dtype.kind != 'f':
            raise ValueError(f'input {i} has dtype {x.dtype}: only float inputs have '
                             'numerical gradients')
        g = numpy.zeros(x.shape, dtype=numpy.float64)
        for idx in numpy.ndindex(*x.shape):
            orig = x[idx].copy()
            sums = {}
            outs = {}
            try:
                for k in steps:
                    x[idx] = orig + k * eps
                    with chainer.using_config('type_check', False):
                        y = f()
                    # now: an output may be a view of the input changed next
                    sums[k] = _weighted_sum(y, grad_outputs)
                    if detect_nondifferentiable:
                        outs[k] = _host_outputs(y)
            finally:
                x[idx] = orig
            if detect_nondifferentiable:
                samples = [center if k == 0 else outs[k] for k in _DETECT_STEPS]
                reason = _nondifferentiable_reason(samples, diff_atol, diff_rtol)
                if reason is not None:
                    raise NondifferentiableError(
                        f'input {i} looks non-differentiable at index {idx}: {reason} '
                        f'(eps={eps}, diff_atol={diff_atol}, diff_rtol={diff_rtol})')
            g[idx] = (sums[1.0] - sums[-1.0]) / (2 * eps)
        xp = backend.get_array_module(x)
        out = g.astype(x.dtype)
        grads.append(out if xp is numpy else _to_device_of(out, x))
    return tuple(grads)


def _to_device_of(a: numpy.ndarray, like: Any) -> Any:
    return backend.get_device_from_array(like).send(a)


def _input_array(x: Any, i: int) -> Any:
    x = x.array if isinstance(x, Variable) else x
    if not isinstance(x, chainer.get_array_types()):
        raise TypeError(f'x_data[{i}] must be an array (numpy.ndarray or cupy.ndarray), '
                        f'not {type(x).__name__}')
    return x


def _array_kind(a: Any) -> str:
    """``'numpy.ndarray'``, ``'cupy.ndarray'``: the type of ``a`` with its top package."""
    return f'{type(a).__module__.partition(".")[0]}.{type(a).__name__}'


def _check_same_module(arrays: Sequence[Any], names: Sequence[str]) -> None:
    """Raise ValueError naming the first of ``arrays`` on another device than the first."""
    if not arrays:
        return
    xp = backend.get_array_module(arrays[0])
    for a, name in zip(arrays[1:], names[1:]):
        if backend.get_array_module(a) is not xp:
            raise ValueError(f'{name} is a {_array_kind(a)} but {names[0]} is a '
                             f'{_array_kind(arrays[0])}: put every array on one device')


def _outputs_of(result: Any, what: str) -> tuple[Variable, ...]:
    outs = _as_tuple(result)
    ret = []
    for i, y in enumerate(outs):
        if isinstance(y, Variable):
            ret.append(y)
        elif isinstance(y, chainer.get_array_types()):
            ret.append(Variable(cast('NdArray', y), requires_grad=False))
        else:
            raise TypeError(f'{what} must return a Variable or a tuple of Variables; output '
                            f'{i} is {type(y).__name__}')
    return tuple(ret)


def _describe_targets(n_inputs: int, n_params: int) -> list[str]:
    return [f'input {i}' for i in range(n_inputs)] + [f'param {i}' for i in range(n_params)]


def check_backward(func: Callable[..., Any], x_data: VariableOrArray | Sequence[VariableOrArray],
                   y_grad: NdArray | Sequence[NdArray | None] | None,
                   params: Variable | Sequence[Variable] = (), eps: float = 1e-3,
                   atol: float = 1e-5, rtol: float = 1e-4, no_grads: Sequence[bool] | None = None,
                   dtype: DTypeSpec | None = None, detect_nondifferentiable: bool = False) -> None:
    """Check the backward of ``func`` against numerical gradients.

    ``func`` is called on ``x_data`` wrapped in Variables and the gradients of
    ``sum(y_grad * func(x))`` with respect to the inputs and ``params`` are
    computed by backpropagation. Their directional derivative along a random
    direction is compared with the central difference of the same sum along
    that direction.

    Args:
        func: a function (or FunctionNode-based callable, or Link) taking
            Variables and returning a Variable or a tuple of Variables.
        x_data: an input array or a tuple of arrays.
        y_grad: the gradient array(s) of the outputs; None for a function
            returning one scalar (a loss), whose gradient is then 1. An entry
            may be None for an output that is not differentiated.
        params: Variables (e.g. a link's parameters) whose gradients are also
            checked; they are perturbed in place and restored.
        eps: the finite-difference step.
        atol, rtol: tolerances of the comparison.
        no_grads: one flag per input; True skips that input. By default the
            non-float inputs are skipped.
        dtype: float dtype the inputs, output gradients and params are cast
            to for the numerical computation (None: their own dtypes).
        detect_nondifferentiable: raise :class:`NondifferentiableError` when
            the left and right derivatives along the direction disagree.

    Raises:
        AssertionError: when the gradients do not match (the message names
            the inputs and shows the elementwise differences of small inputs).
        NondifferentiableError: see ``detect_nondifferentiable``.
        RuntimeError: when backward computes a gradient for a float input skipped
            by ``no_grads``.
        ValueError, TypeError: for malformed arguments.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> from chainer import gradient_check
        >>> x = np.array([[0.5, -1.0], [2.0, 0.3]])
        >>> gy = np.ones((2, 2))
        >>> gradient_check.check_backward(F.tanh, x, gy)
    """
    _check_eps(eps)
    if dtype is not None:
        dtype = numpy.dtype(dtype)
        if dtype.kind != 'f':
            raise ValueError(f'dtype must be a float dtype or None, not {dtype}')
    x_arrays = [_input_array(x, i) for i, x in enumerate(_as_tuple(x_data))]
    _check_same_module(x_arrays, [f'x_data[{i}]' for i in range(len(x_arrays))])
    params = tuple(_as_tuple(params)) if params is not None else ()
    for i, p in enumerate(params):
        if not isinstance(p, Variable):
            raise TypeError(f'params[{i}] must be a Variable (e.g. a Parameter), not '
                            f'{type(p).__name__}')
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_arrays]
    else:
        no_grads = [bool(ng) for ng in no_grads]
        if len(no_grads) != len(x_arrays):
            raise ValueError(f'no_grads has {len(no_grads)} entries for {len(x_arrays)} inputs')
        for i, (x, ng) in enumerate(zip(x_arrays, no_grads)):
            if not ng and x.dtype.kind != 'f':
                raise ValueError(f'input {i} has dtype {x.dtype}, which has no gradient: set '
                                 f'no_grads[{i}] to True')

    # -- gradients by backpropagation ---------------------------------------
    # float inputs need gradients even when skipped: backward must leave them None
    xs = [Variable(x, requires_grad=x.dtype.kind == 'f') for x in x_arrays]
    with chainer.using_config('enable_backprop', True):
        ys = _outputs_of(func(*xs), 'func')
    # As v7, a lazily initialized parameter may be initialized by that first call.
    for i, p in enumerate(params):
        if p.array is None:
            raise ValueError(f'params[{i}] is not initialized by a forward pass of func')
    if y_grad is None:
        if len(ys) != 1 or ys[0].size != 1:
            raise ValueError('y_grad may be None only when func returns one scalar; it returned '
                             f'{len(ys)} outputs of shapes {[y.shape for y in ys]}')
        gys: list[Any] = [None]
        numeric_gys: list[Any] = [numpy.ones((), dtype=numpy.float64)]
    else:
        gys = [getattr(g, 'array', g) for g in _as_tuple(y_grad)]
        if len(gys) != len(ys):
            raise ValueError(f'{len(gys)} y_grad entries for {len(ys)} outputs')
        for i, (y, gy) in enumerate(zip(ys, gys)):
            if gy is None:
                continue
            if gy.shape != y.shape:
                raise ValueError(f'y_grad[{i}] has shape {gy.shape}; output {i} has {y.shape}')
            if gy.dtype != y.dtype:
                raise ValueError(f'y_grad[{i}] has dtype {gy.dtype}; output {i} has {y.dtype}')
            _check_same_module([y.array, gy], [f'output {i}', f'y_grad[{i}]'])
        if all(gy is None for gy in gys) and (not all(no_grads) or params):
            # (without any gradient to check either, there is nothing to do: as v7)
            raise ValueError('every y_grad entry is None: nothing to check')
        numeric_gys = list(gys)

    targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
    names = [n for n, ng in zip(_describe_targets(len(xs), 0), no_grads) if not ng]
    names += _describe_targets(0, len(params))
    skipped = [(i, x) for i, (x, ng) in enumerate(zip(xs, no_grads)) if ng and x.requires_grad]
    if not targets and not skipped:
        return
    pairs = [(y, gy) for y, gy in zip(ys, gys) if gy is not None or y_grad is None]
    analytic = chainer.grad([y for y, _ in pairs], targets + [x for _, x in skipped],
                            grad_outputs=[None if gy is None else Variable(gy) for _, gy in pairs])
    for (i, _), g in zip(skipped, analytic[len(targets):]):
        if g is not None:
            raise RuntimeError(f'input {i} is skipped by no_grads, but backward computed a '
                               'gradient for it')
    analytic = analytic[:len(targets)]
    if not targets:
        return
    for name, t, g in zip(names, targets, analytic):
        if g is None:
            continue
        if g.shape != t.shape:
            raise AssertionError(f'the gradient of {name} has shape {g.shape}; {name} has '
                                 f'shape {t.shape}')
        if g.dtype != t.dtype:
            raise AssertionError(f'the gradient of {name} has dtype {g.dtype}; {name} has '
                                 f'dtype {t.dtype}')
        if type(g.array) is not type(t.array):
            raise AssertionError(f'the gradient of {name} is a {_array_kind(g.array)}; '
                                 f'{name} is a {_array_kind(t.array)}')

    # -- a random direction, unit length over all targets ----------------------
    rng = numpy.random.RandomState(len(targets) * 7919 + sum(t.size for t in targets))
    directions = [rng.normal(size=t.shape) for t in targets]
    norm = numpy.sqrt(sum(float((d * d).sum()) for d in directions))
    if norm > 0:
        directions = [d / norm for d in directions]
    contributions = [0.0 if g is None else float((_host64(g) * d).sum())
                     for g, d in zip(analytic, directions)]
    analytic_dot = sum(contributions)

    # -- the numerical directional derivative ---------------------------------
    def cast(a: Any) -> Any:
        if dtype is not None and a.dtype.kind == 'f':
            return a.astype(dtype)
        return a

    base_x = [cast(x) for x in x_arrays]
    base_p = [cast(p.array) for p in params]
    saved_p = [p.array for p in params]
    grad_targets = [i for i, ng in enumerate(no_grads) if not ng]

    def shifted(base: Any, d: numpy.ndarray, t: float) -> Any:
        step = (d * t).astype(base.dtype)
        if not isinstance(base, numpy.ndarray):
            step = _to_device_of(step, base)
        out = base + step
        # NumPy turns 0-dim results into scalars.
        return out if out.__class__ is base.__class__ else numpy.asarray(out, base.dtype)

    def outputs_at(t: float) -> tuple[Variable, ...]:
        inputs = list(base_x)
        for k, i in enumerate(grad_targets):
            inputs[i] = shifted(base_x[i], directions[k], t)
        offset = len(grad_targets)
        for k, p in enumerate(params):
            p.array = shifted(base_p[k], directions[offset + k], t)
        # Backprop stays on: func may differentiate internally (check_double_backward).
        # Type checks are off, as in v7's numerical gradients: with ``dtype`` the
        # inputs are cast while the parameters of a link under test are not.
        with chainer.using_config('enable_backprop', True), \
                chainer.using_config('type_check', False):
            return _outputs_of(func(*[Variable(x, requires_grad=not ng)
                                      for x, ng in zip(inputs, no_grads)]), 'func')

    def eval_at(t: float) -> float:
        return _weighted_sum(outputs_at(t), numeric_gys)

    try:
        if detect_nondifferentiable:
            outs = {k: outputs_at(k * eps) for k in _DETECT_STEPS}
            reason = _nondifferentiable_reason(
                [_host_outputs(outs[k]) for k in _DETECT_STEPS], 0.0, 1e-2)
            if reason is not None:
                raise NondifferentiableError(
                    f'func looks non-differentiable at the given point along the check '
                    f'direction: {reason} (eps={eps})')
            numeric_dot = (_weighted_sum(outs[1.0], numeric_gys)
                           - _weighted_sum(outs[-1.0], numeric_gys)) / (2 * eps)
        else:
            numeric_dot = (eval_at(eps) - eval_at(-eps)) / (2 * eps)
        if abs(analytic_dot - numeric_dot) <= atol + rtol * abs(numeric_dot):
            return
        # as v7's comparison (numpy.testing.assert_allclose): NaN matches NaN, inf itself
        if analytic_dot == numeric_dot or (math.isnan(analytic_dot)
                                           and math.isnan(numeric_dot)):
            return
        lines = [
            'check_backward failed: the gradients computed by backward do not match the '
            'numerical gradients.',
            f'  directional derivative by backward: {analytic_dot!r}',
            f'  directional derivative numerically: {numeric_dot!r}',
            f'  atol={atol}, rtol={rtol}, eps={eps}, dtype={dtype}',
        ]
        for name, g, c in zip(names, analytic, contributions):
            lines.append(f'  {name}: ' + ('no gradient (None)' if g is None else
                                          f'contributes {c!r}'))
        if sum(t.size for t in targets) <= _DIAGNOSTIC_SIZE:
            lines.extend(_elementwise_report(eval_at, directions, analytic, names, eps))
    finally:
        for p, a in zip(params, saved_p):
            p.array = a
    raise AssertionError('\n'.join(lines))


def _elementwise_report(eval_at: Callable[[float], float], directions: list[Any],
                        analytic: list[Any], names: list[str], eps: float) -> list[str]:
    """Elementwise numerical gradients by perturbing one element at a time."""
    lines = []
    saved = [d.copy() for d in directions]
    try:
        for k, (name, g) in enumerate(zip(names, analytic)):
            num = numpy.zeros(directions[k].shape)
            for d in directions:
                d[...] = 0
            for idx in numpy.ndindex(*num.shape):
                directions[k][idx] = 1
                num[idx] = (eval_at(eps) - eval_at(-eps)) / (2 * eps)
                directions[k][idx] = 0
            ana = numpy.zeros(num.shape) if g is None else _host64(g)
            err = numpy.abs(ana - num)
            worst = numpy.unravel_index(int(err.argmax()), err.shape) if err.size else ()
            lines.append(f'  {name}: max |backward - numerical| = '
                         f'{float(err.max()) if err.size else 0.0!r} at {worst}')
            lines.append(f'    backward:  {numpy.array2string(ana.ravel(), precision=6)}')
            lines.append(f'    numerical: {numpy.array2string(num.ravel(), precision=6)}')
    finally:
        for d, s in zip(directions, saved):
            d[...] = s
    return lines


def check_double_backward(func: Callable[..., Any],
                          x_data: VariableOrArray | Sequence[VariableOrArray],
                          y_grad: NdArray | Sequence[NdArray | None] | None,
                          x_grad_grad: NdArray | Sequence[NdArray | None],
                          params: Variable | Sequence[Variable] = (),
                          params_grad_grad: NdArray | Sequence[NdArray | None] = (),
                          eps: float = 1e-3, atol: float = 1e-4, rtol: float = 1e-3,
                          no_grads: Sequence[bool] | None = None, dtype: DTypeSpec | None = None,
                          detect_nondifferentiable: bool = False) -> None:
    """Check the second-order gradients of ``func`` numerically.

    The first-order gradients (computed with ``enable_double_backprop``) are
    treated as a function of the inputs and of ``y_grad``, and the backward of
    that function is checked with :func:`check_backward` against
    ``x_grad_grad`` and ``params_grad_grad``. The first-order gradients
    themselves are assumed correct: check them with :func:`check_backward`.

    Args:
        func: the function.
        x_data: input array(s).
        y_grad: output gradient(s) (None for a function returning a scalar).
        x_grad_grad: the gradients of the first-order input gradients, one per
            differentiated input (inputs skipped by ``no_grads`` have none).
        params: Variables whose first-order gradients are also outputs.
        params_grad_grad: the gradients of the params' first-order gradients.
        eps, atol, rtol, no_grads, dtype, detect_nondifferentiable: as in
            :func:`check_backward`.

    Raises:
        AssertionError: when the second-order gradients do not match.
    """
    x_data = tuple(_input_array(x, i) for i, x in enumerate(_as_tuple(x_data)))
    params = tuple(_as_tuple(params)) if params is not None else ()
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in x_data]
    elif len(no_grads) != n_x:
        raise ValueError(f'no_grads has {len(no_grads)} entries for {n_x} inputs')
    no_grads = [bool(ng) for ng in no_grads]
    n_targets = sum(not ng for ng in no_grads)

    if y_grad is None:
        gy_arrays: tuple[Any, ...] = ()
        gy_mask: list[bool] | None = None
    else:
        gys = tuple(getattr(g, 'array', g) for g in _as_tuple(y_grad))
        gy_mask = [g is not None for g in gys]
        gy_arrays = tuple(g for g in gys if g is not None)

    ggx = [getattr(g, 'array', g) for g in _as_tuple(x_grad_grad)] if x_grad_grad is not None \
        else []
    if len(ggx) == n_x and n_targets != n_x:
        ggx = [g for g, ng in zip(ggx, no_grads) if not ng]
    if len(ggx) != n_targets:
        raise ValueError(f'x_grad_grad has {len(ggx)} entries for {n_targets} differentiated '
                         'inputs')
    ggp = [getattr(g, 'array', g) for g in _as_tuple(params_grad_grad)] \
        if params_grad_grad is not None else []
    if len(ggp) != len(params):
        raise ValueError(f'params_grad_grad has {len(ggp)} entries for {len(params)} params')

    def first_order(*args: Any) -> tuple[Variable, ...]:
        xs = args[:n_x]
        gy_vars = list(args[n_x:])
        ys = _outputs_of(func(*xs), 'func')
        if gy_mask is None:
            outs, grad_outputs = list(ys), None
        else:
            if len(gy_mask) != len(ys):
                raise ValueError(f'{len(gy_mask)} y_grad entries for {len(ys)} outputs')
            outs = [y for y, m in zip(ys, gy_mask) if m]
            grad_outputs = gy_vars
        targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
        gxs = chainer.grad(outs, targets, grad_outputs=grad_outputs,
                           enable_double_backprop=True)
        ret = []
        for g, t in zip(gxs, targets):
            if g is None:
                g = Variable(backend.get_array_module(t.array).zeros_like(t.array),
                             requires_grad=False)
            ret.append(g)
        return tuple(ret)

    ggs = tuple(ggx) + tuple(ggp)
    check_backward(first_order, x_data + gy_arrays, ggs, params=params, eps=eps, atol=atol,
                   rtol=rtol, no_grads=list(no_grads) + [False] * len(gy_arrays), dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
