"""Element-wise routines: arithmetic (with ChainerX's promotion), comparisons, logic,
exponentials, trigonometry, rounding, casts. Each differentiable one records a backward
written with these same routines, so it can be differentiated again."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy

from chainerx import _dtypes, _graph, _manipulation, _reduction
from chainerx._array import check_same_device, make, ndarray
from chainerx._device import Device
from chainerx._errors import DimensionError, DtypeError

Scalar = bool | int | float | numpy.generic


def _data(x: Any, dtype: numpy.dtype) -> Any:
    """The backend data of array or scalar *x* as *dtype*."""
    if isinstance(x, ndarray):
        d = x._data
        return d if d.dtype == dtype else d.astype(dtype)
    return numpy.array(x).astype(dtype)[()]


def _binary(x1: Any, x2: Any) -> tuple[list[ndarray], Device, numpy.dtype]:
    arrays = [x for x in (x1, x2) if isinstance(x, ndarray)]
    if not arrays:
        raise TypeError('at least one operand must be a chainerx.ndarray')
    for x in (x1, x2):
        if not isinstance(x, ndarray) and not _dtypes.is_scalar(x):
            raise TypeError(f'unsupported operand type: {type(x).__name__}')
    device = check_same_device(*arrays)
    if len(arrays) == 2 and arrays[0].shape != arrays[1].shape:
        try:
            numpy.broadcast_shapes(arrays[0].shape, arrays[1].shape)
        except ValueError:
            raise DimensionError(f'shapes {arrays[0].shape} and {arrays[1].shape} do not '
                                 'broadcast') from None
    return arrays, device, _dtypes.result_type(x1, x2)


def _is_bool(x: Any) -> bool:
    if isinstance(x, ndarray):
        return x.dtype.kind == 'b'
    return isinstance(x, bool | numpy.bool_)


def _no_bool_mix(x1: Any, x2: Any, name: str) -> None:
    """DtypeError unless both operands are bool or neither is (arrays only)."""
    kinds = [a.dtype.kind == 'b' for a in (x1, x2) if isinstance(a, ndarray)]
    if len(kinds) == 2 and kinds[0] != kinds[1]:
        raise DtypeError(f'{name} does not mix bool and numeric arrays')


def _wrap(data: Any, device: Device) -> ndarray:
    if not hasattr(data, 'shape') or isinstance(data, numpy.generic):
        data = device.xp.asarray(data)
    return make(data, device)


def _no_bool(arrays: list[ndarray], name: str) -> None:
    for a in arrays:
        if a.dtype.kind == 'b':
            raise DtypeError(f'{name} does not accept bool arrays')


def sum_to(g: ndarray, x: ndarray) -> ndarray:
    """*g* summed over the axes broadcast from *x*'s shape, as *x*'s dtype."""
    shape = x.shape
    if g.shape != shape:
        lead = g.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1)
        if axes:
            g = _reduction.sum(g, axes, keepdims=True)
        if lead:
            g = _manipulation.reshape(g, shape)
    if g.dtype != x.dtype:
        g = astype(g, x.dtype, False)
    return g


def _binary_op(name: str, ufunc: str, x1: Any, x2: Any,
               grads: Callable[[Any, Any, ndarray, list[bool]], list[ndarray | None]] | None,
               check_bool: bool = True, out_dtype: numpy.dtype | None = None) -> ndarray:
    arrays, device, dtype = _binary(x1, x2)
    if check_bool:
        _no_bool(arrays, name)
    if out_dtype is not None:
        dtype = out_dtype
    with device._scope():
        data = getattr(device.xp, ufunc)(_data(x1, dtype), _data(x2, dtype))
    out = _wrap(data, device)
    if grads is not None and (arrays[0]._nodes or arrays[-1]._nodes):

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            want = iter(need)
            needs = [next(want) if isinstance(x, ndarray) else False for x in (x1, x2)]
            gx = grads(x1, x2, gys[0], needs)
            return [sum_to(g, x) if g is not None and isinstance(x, ndarray) else None
                    for g, x in zip(gx, (x1, x2)) if isinstance(x, ndarray)]

        _graph.record(arrays, (out,), backward)
    return out


def add(x1: Any, x2: Any) -> ndarray:
    """``x1 + x2``."""
    return _binary_op('add', 'add', x1, x2, lambda a, b, gy, n: [gy, gy])


def subtract(x1: Any, x2: Any) -> ndarray:
    """``x1 - x2``."""
    return _binary_op('subtract', 'subtract', x1, x2,
                      lambda a, b, gy, n: [gy, negative(gy) if n[1] else None])


def multiply(x1: Any, x2: Any) -> ndarray:
    """``x1 * x2``."""
    return _binary_op('multiply', 'multiply', x1, x2, lambda a, b, gy, n: [
        multiply(gy, b) if n[0] else None, multiply(gy, a) if n[1] else None],
        check_bool=False)


def _divide_grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
    ga = divide(gy, b) if n[0] else None
    gb = negative(divide(multiply(gy, a), multiply(b, b))) if n[1] else None
    return [ga, gb]


def divide(x1: Any, x2: Any) -> ndarray:
    """``x1 / x2`` (integers give float32)."""
    arrays, _, dtype = _binary(x1, x2)
    _no_bool(arrays, 'divide')
    return _binary_op('divide', 'true_divide', x1, x2, _divide_grads,
                      out_dtype=_dtypes.float_result(dtype))


true_divide = divide


def floor_divide(x1: Any, x2: Any) -> ndarray:
    """``x1 // x2`` (not differentiable)."""
    return _binary_op('floor_divide', 'floor_divide', x1, x2, None)


def remainder(x1: Any, x2: Any) -> ndarray:
    """``x1 % x2`` with the sign of *x2* (gradient 1 for *x1*, ``-floor(x1/x2)`` for *x2*)."""
    def grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
        gb = negative(multiply(gy, floor(divide(a, b)))) if n[1] else None
        return [gy, gb]

    return _binary_op('remainder', 'remainder', x1, x2, grads)


mod = remainder


def fmod(x1: Any, x2: Any) -> ndarray:
    """C's remainder (the sign of *x1*)."""
    def grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
        gb = negative(multiply(gy, fix(divide(a, b)))) if n[1] else None
        return [gy, gb]

    return _binary_op('fmod', 'fmod', x1, x2, grads)


def power(x1: Any, x2: Any) -> ndarray:
    """``x1 ** x2`` (not for bools)."""
    if _is_bool(x1) or _is_bool(x2):
        raise DtypeError('power does not accept bools')

    def grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
        ga = gb = None
        if n[0]:
            b_less = subtract(b, 1) if isinstance(b, ndarray) else b - 1
            ga = multiply(gy, multiply(b, power(a, b_less)))
        if n[1]:
            log_a = log(a) if isinstance(a, ndarray) else float(numpy.log(a))
            gb = multiply(gy, multiply(power(a, b), log_a))
        return [ga, gb]

    return _binary_op('power', 'power', x1, x2, grads)


def _select_grads(pick_first: Callable[[Any, Any], ndarray]) -> Callable[
        [Any, Any, ndarray, list[bool]], list[ndarray | None]]:
    def grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
        mask = pick_first(a, b)
        zero = gy.dtype.type(0)
        ga = where(mask, gy, zero) if n[0] else None
        gb = where(mask, zero, gy) if n[1] else None
        return [ga, gb]

    return grads


def maximum(x1: Any, x2: Any) -> ndarray:
    """The element-wise maximum (NaN propagates)."""
    _no_bool_mix(x1, x2, 'maximum')
    return _binary_op('maximum', 'maximum', x1, x2,
                      _select_grads(lambda a, b: greater_equal(a, b)), check_bool=False)


def minimum(x1: Any, x2: Any) -> ndarray:
    """The element-wise minimum (NaN propagates)."""
    _no_bool_mix(x1, x2, 'minimum')
    return _binary_op('minimum', 'minimum', x1, x2,
                      _select_grads(lambda a, b: less_equal(a, b)), check_bool=False)


def arctan2(x1: Any, x2: Any) -> ndarray:
    """The angle of the point ``(x2, x1)``."""
    def grads(a: Any, b: Any, gy: ndarray, n: list[bool]) -> list[ndarray | None]:
        den = add(multiply(a, a), multiply(b, b))
        ga = divide(multiply(gy, b), den) if n[0] else None
        gb = negative(divide(multiply(gy, a), den)) if n[1] else None
        return [ga, gb]

    arrays, _, dtype = _binary(x1, x2)
    return _binary_op('arctan2', 'arctan2', x1, x2, grads, check_bool=False,
                      out_dtype=_dtypes.float_result(dtype))


def _int_binary(name: str) -> Callable[[Any, Any], ndarray]:
    def f(x1: Any, x2: Any) -> ndarray:
        arrays, _, dtype = _binary(x1, x2)
        if dtype.kind == 'f':
            raise DtypeError(f'{name} needs integer or bool operands')
        return _binary_op(name, name, x1, x2, None, check_bool=False)

    f.__name__ = name
    f.__doc__ = f'Element-wise ``{name}`` of integer or bool arrays.'
    return f


bitwise_and = _int_binary('bitwise_and')
bitwise_or = _int_binary('bitwise_or')
bitwise_xor = _int_binary('bitwise_xor')


def _shift(name: str) -> Callable[[Any, Any], ndarray]:
    def f(x1: Any, x2: Any) -> ndarray:
        arrays, device, _ = _binary(x1, x2)
        for x in (x1, x2):
            kind = x.dtype.kind if isinstance(x, ndarray) else numpy.asarray(x).dtype.kind
            if kind not in 'iu':
                raise DtypeError(f'{name} needs integer operands')
        dtype = x1.dtype if isinstance(x1, ndarray) else numpy.dtype(numpy.int64)
        return _binary_op(name, name, x1, x2, None, check_bool=False, out_dtype=dtype)

    f.__name__ = name
    f.__doc__ = (f'Element-wise ``{name}`` of integers, in the dtype of the shifted operand '
                 '(int64 for a scalar).')
    return f


left_shift = _shift('left_shift')
right_shift = _shift('right_shift')


def _compare(ufunc: str) -> Callable[[Any, Any], ndarray]:
    def f(x1: Any, x2: Any) -> ndarray:
        arrays, device, dtype = _binary(x1, x2)
        _no_bool_mix(x1, x2, ufunc)
        with device._scope():
            data = getattr(device.xp, ufunc)(_data(x1, dtype), _data(x2, dtype))
        return _wrap(data, device)

    f.__name__ = ufunc
    f.__doc__ = f'Element-wise ``{ufunc}`` (a bool array).'
    return f


equal = _compare('equal')
not_equal = _compare('not_equal')
less = _compare('less')
less_equal = _compare('less_equal')
greater = _compare('greater')
greater_equal = _compare('greater_equal')


def _logical(ufunc: str) -> Callable[[Any, Any], ndarray]:
    def f(x1: Any, x2: Any) -> ndarray:
        arrays, device, _ = _binary(x1, x2)
        with device._scope():
            data = getattr(device.xp, ufunc)(_data(x1, _dtypes.BOOL), _data(x2, _dtypes.BOOL))
        return _wrap(data, device)

    f.__name__ = ufunc
    f.__doc__ = f'Element-wise ``{ufunc}`` of truth values.'
    return f


logical_and = _logical('logical_and')
logical_or = _logical('logical_or')
logical_xor = _logical('logical_xor')


def _as_array(x: Any) -> ndarray:
    if not isinstance(x, ndarray):
        raise TypeError(f'expected a chainerx.ndarray, got {type(x).__name__}')
    return x


def logical_not(x: ndarray) -> ndarray:
    """Element-wise NOT of truth values."""
    x = _as_array(x)
    return _wrap(x._device.xp.logical_not(x._data), x._device)


def bitwise_not(x: ndarray) -> ndarray:
    """``~x`` for integer or bool arrays."""
    x = _as_array(x)
    if x.dtype.kind == 'f':
        raise DtypeError('bitwise_not needs an integer or bool array')
    return _wrap(x._device.xp.invert(x._data), x._device)


def _check_inplace_dtype(a: ndarray, result: numpy.dtype) -> None:
    if _dtypes.kind_rank(result) > _dtypes.kind_rank(a.dtype):
        raise DtypeError(
            f'in-place result of dtype {result.name} cannot be stored in {a.dtype.name}')


def inplace(op: Callable[[Any, Any], ndarray], a: ndarray, b: Any) -> ndarray:
    """``a op= b``: the result stored in *a* (same kind or lower; no graph member)."""
    a._check_writable()
    b_ = b.as_grad_stopped() if isinstance(b, ndarray) else b
    if (isinstance(b_, ndarray) and b_.dtype != a.dtype
            and _dtypes.kind_rank(b_.dtype) == _dtypes.kind_rank(a.dtype)):
        b_ = astype(b_, a.dtype, False)  # within a kind, as NumPy casts before the op
    out = op(a.as_grad_stopped(), b_)
    _check_inplace_dtype(a, out.dtype)
    a._data[...] = out._data
    return a


# ---- unary -------------------------------------------------------------------------------

def _retained(x: ndarray, y_data: Any, forward: Callable[[ndarray], ndarray]) -> ndarray:
    """The output of *forward* on *x* for a backward: recomputed (so connected) where
    the backward is being recorded, else the kept data (no reference cycle)."""
    if _graph.is_recording((x,)):
        return forward(x)
    return make(y_data, x._device)


def _unary(ufunc: str, x: Any, float_out: bool,
           grad: Callable[[ndarray, Callable[[], ndarray], ndarray], ndarray] | None,
           forward: Callable[[ndarray], ndarray]) -> ndarray:
    x = _as_array(x)
    dtype = x.dtype
    data = x._data
    if float_out and dtype.kind != 'f':
        data = data.astype(_dtypes.FLOAT32)
    with x._device._scope():
        y = getattr(x._device.xp, ufunc)(data)
    out = _wrap(y, x._device)
    if grad is not None and x._nodes:
        y_data = out._data

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            return [grad(x, lambda: _retained(x, y_data, forward), gys[0])]

        _graph.record((x,), (out,), backward)
    return out


UnaryFn = Callable[[ndarray], ndarray]


def _float_unary(ufunc: str, grad: Callable[[ndarray, Callable[[], ndarray], ndarray],
                                            ndarray] | None,
                 doc: str) -> Callable[[ndarray], ndarray]:
    def f(x: ndarray) -> ndarray:
        return _unary(ufunc, x, True, grad, f)

    f.__name__ = ufunc
    f.__doc__ = doc
    return f


exp: UnaryFn = _float_unary('exp', lambda x, y, gy: multiply(gy, y()), 'Element-wise ``e ** x``.')
exp2: UnaryFn = _float_unary('exp2', lambda x, y, gy: multiply(gy, multiply(y(), numpy.log(2.0))),
                    'Element-wise ``2 ** x``.')
expm1: UnaryFn = _float_unary('expm1', lambda x, y, gy: multiply(gy, exp(x)),
                     'Element-wise ``e ** x - 1``.')
log: UnaryFn = _float_unary('log', lambda x, y, gy: divide(gy, x), 'Natural logarithm.')
log2: UnaryFn = _float_unary('log2', lambda x, y, gy: divide(gy, multiply(x, numpy.log(2.0))),
                    'Base-2 logarithm.')
log10: UnaryFn = _float_unary('log10', lambda x, y, gy: divide(gy, multiply(x, numpy.log(10.0))),
                     'Base-10 logarithm.')
log1p: UnaryFn = _float_unary('log1p', lambda x, y, gy: divide(gy, add(x, 1)), '``log(1 + x)``.')
sqrt: UnaryFn = _float_unary('sqrt', lambda x, y, gy: divide(gy, multiply(y(), 2)), 'Square root.')
cbrt: UnaryFn = _float_unary('cbrt', lambda x, y, gy: divide(gy, multiply(square(y()), 3)),
                    'Cube root.')
sin: UnaryFn = _float_unary('sin', lambda x, y, gy: multiply(gy, cos(x)), 'Sine.')
cos: UnaryFn = _float_unary('cos', lambda x, y, gy: negative(multiply(gy, sin(x))), 'Cosine.')
tan: UnaryFn = _float_unary('tan', lambda x, y, gy: divide(gy, square(cos(x))), 'Tangent.')
arcsin: UnaryFn = _float_unary('arcsin', lambda x, y, gy: divide(gy, sqrt(subtract(1, square(x)))),
                      'Inverse sine.')
arccos: UnaryFn = _float_unary(
    'arccos', lambda x, y, gy: negative(divide(gy, sqrt(subtract(1, square(x))))),
    'Inverse cosine.')
arctan: UnaryFn = _float_unary('arctan', lambda x, y, gy: divide(gy, add(square(x), 1)),
                      'Inverse tangent.')
sinh: UnaryFn = _float_unary('sinh', lambda x, y, gy: multiply(gy, cosh(x)), 'Hyperbolic sine.')
cosh: UnaryFn = _float_unary('cosh', lambda x, y, gy: multiply(gy, sinh(x)), 'Hyperbolic cosine.')
tanh: UnaryFn = _float_unary('tanh', lambda x, y, gy: multiply(gy, subtract(1, square(y()))),
                    'Hyperbolic tangent.')
arcsinh: UnaryFn = _float_unary('arcsinh', lambda x, y, gy: divide(gy, sqrt(add(square(x), 1))),
                       'Inverse hyperbolic sine.')
arccosh: UnaryFn = _float_unary(
    'arccosh', lambda x, y, gy: divide(gy, sqrt(subtract(square(x), 1))),
    'Inverse hyperbolic cosine.')
arctanh: UnaryFn = _float_unary('arctanh', lambda x, y, gy: divide(gy, subtract(1, square(x))),
                       'Inverse hyperbolic tangent.')


def _erf_data(xp: Any, data: Any) -> Any:
    if xp is numpy:
        # math.erf element by element, in double precision
        return numpy.frompyfunc(math.erf, 1, 1)(data).astype(data.dtype)
    from cupyx.scipy import special  # layout: optional

    return special.erf(data)


def erf(x: ndarray) -> ndarray:
    """The error function ``2 / sqrt(pi) * integral_0^x exp(-t^2) dt`` (integers give
    float32)."""
    x = _as_array(x)
    dt = _dtypes.float_result(x.dtype)
    data = x._data.astype(dt, copy=False)
    with x._device._scope():
        out = _wrap(_erf_data(x._device.xp, data), x._device)
    if x._nodes and x.dtype.kind == 'f':
        scale = 2 / math.sqrt(math.pi)

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            return [multiply(gys[0], multiply(exp(negative(square(x))), scale))]

        _graph.record((x,), (out,), backward)
    return out


def _nograd_unary(ufunc: str, float_out: bool, doc: str) -> Callable[[ndarray], ndarray]:
    def f(x: ndarray) -> ndarray:
        return _unary(ufunc, x, float_out, None, f)

    f.__name__ = ufunc
    f.__doc__ = doc
    return f


floor = _nograd_unary('floor', True, 'The largest integer not above each element.')
ceil = _nograd_unary('ceil', True, 'The smallest integer not below each element.')
fix = _nograd_unary('fix', True, 'Rounded toward zero.')
isnan = _nograd_unary('isnan', False, 'Whether each element is NaN.')
isinf = _nograd_unary('isinf', False, 'Whether each element is infinite.')
isfinite = _nograd_unary('isfinite', False, 'Whether each element is finite.')


def sign(x: ndarray) -> ndarray:
    """-1, 0 or 1 by the sign of each element (not differentiable)."""
    x = _as_array(x)
    if x.dtype.kind == 'b':
        return _wrap(x._data.copy(), x._device)
    return _unary('sign', x, False, None, sign)


def negative(x: ndarray) -> ndarray:
    """``-x``."""
    x = _as_array(x)
    if x.dtype.kind == 'b':
        raise DtypeError('negative does not accept bool arrays')
    return _unary('negative', x, False, lambda x_, y, gy: negative(gy), negative)


def positive(x: ndarray) -> ndarray:
    """``+x`` (a copy)."""
    x = _as_array(x)
    if x.dtype.kind == 'b':
        raise DtypeError('positive does not accept bool arrays')
    return _unary('positive', x, False, lambda x_, y, gy: gy, positive)


def absolute(x: ndarray) -> ndarray:
    """``|x|`` (gradient ``sign(x)``)."""
    x = _as_array(x)
    return _unary('absolute', x, False, lambda x_, y, gy: multiply(gy, sign(x_)), absolute)


abs = absolute


def fabs(x: ndarray) -> ndarray:
    """``|x|`` as floats (integers give float32)."""
    x = _as_array(x)
    if x.dtype.kind != 'f':
        x = astype(x, _dtypes.float_result(x.dtype), False)
    return absolute(x)


def square(x: ndarray) -> ndarray:
    """``x * x``."""
    x = _as_array(x)
    if x.dtype.kind == 'b':
        raise DtypeError('square does not accept bool arrays')
    return _unary('square', x, False, lambda x_, y, gy: multiply(gy, multiply(x_, 2)), square)


def reciprocal(x: ndarray) -> ndarray:
    """``1 / x``."""
    return divide(1, x)


def astype(x: ndarray, dtype: Any, copy: bool = True) -> ndarray:
    """*x* cast to *dtype*; float casts are differentiable (gradient cast back)."""
    dt = _dtypes.to_dtype(dtype)
    src = x.dtype
    if dt == src and not copy:
        return x
    out = make(x._data.astype(dt, copy=True), x._device)
    if x._nodes and dt.kind == 'f' and src.kind == 'f':
        _graph.record((x,), (out,), lambda gys, need: [astype(gys[0], src, False)])
    return out


def where(condition: Any, x: Any, y: Any) -> ndarray:
    """Elements of *x* where *condition* holds, else of *y* (scalars allowed)."""
    cond = _as_array(condition)
    arrays = [a for a in (x, y) if isinstance(a, ndarray)]
    device = check_same_device(cond, *arrays)
    if arrays:
        dtype = _dtypes.result_type(*(a for a in (x, y)))
    else:
        dtype = _dtypes.result_type(_dtypes.default_dtype(x), _dtypes.default_dtype(y))
    c = cond._data if cond.dtype.kind == 'b' else cond._data.astype(bool)
    with device._scope():
        data = device.xp.where(c, _data(x, dtype), _data(y, dtype))
    out = _wrap(data, device)
    if any(a._nodes for a in arrays):
        cond_ = cond.as_grad_stopped()

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            gy = gys[0]
            zero = gy.dtype.type(0)
            res: list[ndarray | None] = []
            if isinstance(x, ndarray):
                res.append(sum_to(where(cond_, gy, zero), x))
            if isinstance(y, ndarray):
                res.append(sum_to(where(cond_, zero, gy), y))
            return res

        _graph.record(arrays, (out,), backward)
    return out


def clip(a: ndarray, a_min: Any, a_max: Any) -> ndarray:
    """*a* limited to ``[a_min, a_max]`` (gradient 1 inside, 0 outside)."""
    out = a
    if a_min is not None:
        out = maximum(out, a_min)
    if a_max is not None:
        out = minimum(out, a_max)
    return out


def sigmoid(x: ndarray) -> ndarray:
    """The logistic function ``1 / (1 + exp(-x))``."""
    x = _as_array(x)
    dt = _dtypes.float_result(x.dtype)
    xp = x._device.xp
    with x._device._scope():
        d = x._data.astype(dt, copy=False)
        y = xp.tanh(d * dt.type(0.5)) * dt.type(0.5) + dt.type(0.5)
    out = _wrap(y, x._device)
    if x._nodes:
        y_data = out._data

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            s = _retained(x, y_data, sigmoid)
            return [multiply(gys[0], multiply(s, subtract(1, s)))]

        _graph.record((x,), (out,), backward)
    return out


def relu(x: ndarray) -> ndarray:
    """``max(x, 0)`` (gradient 1 where x > 0; integers give float32)."""
    x = _as_array(x)
    if x.dtype.kind != 'f':
        x = astype(x, _dtypes.float_result(x.dtype), False)
    with x._device._scope():
        y = x._device.xp.maximum(x._data, x.dtype.type(0))
    out = _wrap(y, x._device)
    if x._nodes:
        mask = make(x._data > 0, x._device)

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            return [multiply(gys[0], astype(mask, gys[0].dtype, False))]

        _graph.record((x,), (out,), backward)
    return out
