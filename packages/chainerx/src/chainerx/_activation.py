"""Activation functions written as compositions of the differentiable element-wise
routines (so their gradients of any order come from those): clipped ReLU, CReLU, ELU,
leaky ReLU, softplus. Integer and bool inputs give float32, as ChainerX's math does."""

from __future__ import annotations

from chainerx import _dtypes, _manipulation, _math
from chainerx._array import ndarray


def _as_float(x: ndarray) -> ndarray:
    x = _math._as_array(x)
    dt = _dtypes.float_result(x.dtype)
    return x if x.dtype == dt else _math.astype(x, dt, False)


def clipped_relu(x: ndarray, z: float = 20.0) -> ndarray:
    """``min(max(x, 0), z)``."""
    return _math.minimum(_math.maximum(_as_float(x), 0), z)


def crelu(x: ndarray, axis: int = 1) -> ndarray:
    """``relu(x)`` and ``relu(-x)`` joined along *axis* (twice as long there)."""
    x = _as_float(x)
    return _manipulation.concatenate([_math.relu(x), _math.relu(_math.negative(x))], axis)


def elu(x: ndarray, alpha: float = 1.0) -> ndarray:
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    x = _as_float(x)
    negative = _math.multiply(_math.expm1(_math.minimum(x, 0)), alpha)
    return _math.where(_math.greater(x, 0), x, negative)


def leaky_relu(x: ndarray, slope: float = 0.2) -> ndarray:
    """``x`` where not negative, else ``slope * x``."""
    x = _as_float(x)
    return _math.where(_math.greater_equal(x, 0), x, _math.multiply(x, slope))


def softplus(x: ndarray, beta: float = 1.0) -> ndarray:
    """``log(1 + exp(beta x)) / beta``, computed stably."""
    bx = _math.multiply(_as_float(x), beta)
    soft = _math.add(_math.maximum(bx, 0),
                     _math.log1p(_math.exp(_math.negative(_math.absolute(bx)))))
    return _math.divide(soft, beta)
