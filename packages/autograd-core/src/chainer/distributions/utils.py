"""Helpers shared by the distributions: parameters, points, validation, random numbers."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._util import expect_float, retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.cast import cast
from chainer.functions.array.where import where
from chainer.functions.math.exponential import log
from chainer.functions.math.sum import sum as sum_
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray, Xp
    from chainer.utils.type_check import TypeInfoTuple


def _is_array(value: object) -> TypeGuard[NdArray]:
    if isinstance(value, numpy.ndarray):
        return True
    cupy = backend.cuda.cupy
    return cupy is not None and isinstance(value, cupy.ndarray)


class ModifiedXLogX(FunctionNode):
    """``x * log(x)``, extended by continuity with ``0`` at ``x = 0``."""

    @property
    def label(self) -> str:
        return 'modified_xlogx'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        zero = x == 0
        y = xp.where(zero, 0, x * xp.log(xp.where(zero, 1, x)))
        return utils.force_array(y, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        # The derivative log(x) + 1 is -inf at 0 (NumPy warns of the division by zero).
        return gy * (log(x) + 1),


def _modified_xlogx(x: Any) -> Variable:
    """Elementwise ``x * log(x)`` with the value ``0`` at ``x = 0`` (entropies of masses).

    Args:
        x: float variable or array (``x >= 0``).

    Returns:
        A variable of the shape and dtype of ``x``; its gradient ``log(x) + 1`` is
        ``-inf`` where ``x`` is 0.
    """
    return ModifiedXLogX().apply((x,))[0]


def as_params(owner: str, broadcast: bool = True,
              **values: Variable | ArrayLike) -> list[Variable]:
    """The parameters of a distribution as variables of one float dtype and one backend.

    Variables are kept as they are (their gradients flow). Arrays are wrapped without a
    graph; numbers, lists and integer arrays take the float dtype of the other parameters
    (``chainer.config.dtype`` when there is none).

    Args:
        owner: the name of the distribution, for error messages.
        broadcast: broadcast the parameters to their common shape.
        values: the parameters by name.

    Returns:
        The variables in the order of ``values``.

    Raises:
        TypeError: for a parameter that is neither a variable, an array nor a number, or
            for float parameters of different dtypes.
        ValueError: when ``broadcast`` and the shapes do not broadcast together.
    """
    ref: NdArray | None = None
    for v in values.values():
        data = v.array if isinstance(v, Variable) else v
        if _is_array(data) and data.dtype.kind == 'f':
            ref = data
            break
    dtype = ref.dtype if ref is not None else chainer.get_dtype()
    xp = backend.get_array_module(ref) if ref is not None else numpy
    out: list[Variable] = []
    for name, v in values.items():
        if isinstance(v, Variable):
            out.append(v)
            continue
        if not (_is_array(v) or isinstance(v, (int, float, list, tuple, numpy.generic))):
            raise TypeError(f'{owner}: {name} must be a Variable, an array or a number, '
                            f'not {type(v).__name__}')
        array: NdArray
        if _is_array(v) and v.dtype.kind == 'f':
            array = v
        elif isinstance(v, numpy.generic) and v.dtype.kind == 'f':
            array = xp.asarray(v)
        else:
            array = xp.asarray(v, dtype=dtype)
        out.append(Variable(array, requires_grad=False))
    if any(v.dtype != out[0].dtype for v in out[1:]):
        dtypes = ', '.join(f'{n}: {v.dtype}' for n, v in zip(values, out))
        raise TypeError(f'{owner}: the parameters must share one dtype ({dtypes})')
    if broadcast and len(out) > 1:
        shapes = [v.shape for v in out]
        if any(s != shapes[0] for s in shapes):
            try:
                shape = numpy.broadcast_shapes(*shapes)
            except ValueError:
                names = ', '.join(f'{n}: {s}' for n, s in zip(values, shapes))
                raise ValueError(f'{owner}: the shapes of the parameters do not broadcast '
                                 f'({names})') from None

            out = [v if v.shape == shape else broadcast_to(v, shape) for v in out]
    return out


def as_points(x: Variable | ArrayLike, like: Variable) -> Variable:
    """Points ``x`` (variable, array or number) as a variable of the dtype and on the
    backend of the parameter ``like``."""
    dtype = like.dtype
    if isinstance(x, Variable):
        if x.dtype != dtype:

            return cast(x, dtype)
        return x
    xp = backend.get_array_module(like)
    array = x if _is_array(x) and isinstance(x, xp.ndarray) else xp.asarray(x)
    if array.dtype != dtype:
        array = array.astype(dtype)
    return Variable(array, requires_grad=False)


def on_support(x: Variable, inside: NdArray, safe: float | NdArray,
               fn: Callable[[Variable], Variable], outside: float = -numpy.inf) -> Variable:
    """``fn(x)`` where the boolean array ``inside`` holds, the constant ``outside``
    (``-inf`` by default, for log-densities) elsewhere.

    Points outside the support are replaced by ``safe`` (a number, or an array that
    broadcasts with ``x``: a point of the support) before ``fn`` sees them, so that no
    NaN (nor its warning, nor a NaN gradient) arises there.
    """

    if bool(inside.all()):
        return fn(x)
    safe = x.dtype.type(safe) if isinstance(safe, (int, float)) else safe.astype(x.dtype)
    x = where(inside, x, safe)
    return where(inside, fn(x), x.dtype.type(outside))


def restrict_to_support(value: Variable, inside: NdArray, outside: float) -> Variable:
    """``value`` where the boolean array ``inside`` holds, else the constant ``outside``."""

    if bool(inside.all()):
        return value
    return where(inside, value, value.dtype.type(outside))


_REQUIREMENTS: dict[str, tuple[Callable[[Any], Any], str]] = {
    'positive': (lambda a: a > 0, 'positive'),
    'nonnegative': (lambda a: a >= 0, 'non-negative'),
    'probability': (lambda a: (a >= 0) & (a <= 1), 'in [0, 1]'),
    'positive_probability': (lambda a: (a > 0) & (a <= 1), 'in (0, 1]'),
    'not_nan': (lambda a: a == a, 'a number (not NaN)'),
}


def check_params(owner: str, **checks: tuple[Any, str]) -> None:
    """In debug mode (``chainer.config.debug``), check parameter values; else do nothing.

    Args:
        owner: the name of the distribution, for the message.
        checks: ``name=(value, requirement)`` with the requirement one of
            ``'positive'``, ``'nonnegative'``, ``'probability'`` (in [0, 1]),
            ``'positive_probability'`` (in (0, 1]) or ``'not_nan'``.

    Raises:
        ValueError: naming the parameter and a bad value when a check fails.
    """
    if not chainer.config.debug:
        return
    for name, (value, requirement) in checks.items():
        data = value.array if isinstance(value, Variable) else value
        test, text = _REQUIREMENTS[requirement]
        ok = test(data)
        if not bool(ok.all()):
            xp = backend.get_array_module(data)
            flat = int(xp.argmin(ok.ravel().astype(numpy.int8)))
            bad = float(data.ravel()[flat])
            if data.ndim:
                index = ', '.join(str(int(i)) for i in numpy.unravel_index(flat, data.shape))
                where = f'{name}[{index}] = {bad!r}'
            else:
                where = f'{name} = {bad!r}'
            raise ValueError(f'{owner}: {name} must be {text}, but {where}')


def check_simplex(owner: str, name: str, p: VariableOrArray) -> None:
    """In debug mode, check that ``p`` holds probabilities summing to 1 on its last axis.

    Raises:
        ValueError: naming ``name`` when an entry is outside [0, 1] or a sum is not 1.
    """
    if not chainer.config.debug:
        return
    check_params(owner, **{name: (p, 'probability')})
    data = p.array if isinstance(p, Variable) else p
    xp = backend.get_array_module(data)
    k = data.shape[-1] if data.ndim else 1
    eps = float(numpy.finfo(data.dtype).eps)
    tol = max(math.sqrt(eps), 8 * k * eps)
    total = data.sum(axis=-1, dtype=numpy.float64)
    if not bool((xp.abs(total - 1) <= tol).all()):
        worst = float(xp.abs(total - 1).max())
        raise ValueError(f'{owner}: {name} must sum to 1 over its last axis, but a sum is '
                         f'off by {worst:.3g}')


def random(xp: Xp, method: str, shape: tuple[int, ...], dtype: DTypeSpec,
           *args: ArrayLike) -> NdArray:
    """An array of ``xp.random.<method>(*args, size=shape)`` cast to ``dtype``.

    ``xp`` is NumPy or CuPy; ``args`` are arrays or numbers that broadcast to ``shape``.
    NumPy draws from the global state (seeded by ``numpy.random.seed``).
    """
    out = getattr(xp.random, method)(*args, size=shape)
    return out.astype(dtype, copy=False)


def sum_last(x: Variable, ndim: int) -> Variable:
    """The sum of ``x`` over its last ``ndim`` axes (``x`` itself for 0)."""
    if ndim == 0:
        return x

    return sum_(x, axis=tuple(range(x.ndim - ndim, x.ndim)))
