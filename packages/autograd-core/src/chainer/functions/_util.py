"""Private helpers shared by every category of functions (input type checks)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy

from chainer import _cpu_blas
from chainer.backends import cuda
from chainer.configuration import config
from chainer.function_node import FunctionNode, grad
from chainer.functions.math.identity import identity
from chainer.utils import numeric_args, type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs
    from chainer.variable import Variable

# Typed access to a node's retained values, for the nodes of chainer.functions and
# chainer.distributions. FunctionNode.get_retained_inputs/outputs give None for an input
# that was None (an absent optional input) or an output that forward returned as None.
# No node here retains such a value: each retains only inputs its wrapper always passes
# as arrays (an optional input such as a bias is never retained) and outputs its forward
# always computes. These two are those methods themselves (no extra call or check on the
# backward path), typed without the None: ``x, W = retained_inputs(self)``.
retained_inputs = cast('Callable[[FunctionNode], tuple[Variable, ...]]',
                       FunctionNode.get_retained_inputs)
retained_outputs = cast('Callable[[FunctionNode], tuple[Variable, ...]]',
                        FunctionNode.get_retained_outputs)

# Shared validators of non-array arguments (axes, sizes, shapes, scalars). Each names
# the argument in its message; a bad type is a TypeError, a bad value a ValueError.

MAX_SIZE = 2**62
"""No size, count or length argument may exceed this (it could not index memory)."""


def as_int(value: Any, name: str) -> int:
    """``value`` as a Python int; TypeError for anything that is not an integer
    (NumPy integers and 0-d integer arrays are integers; ``bool`` is not)."""
    return numeric_args.as_int(value, name)


def as_int_tuple(value: Any, name: str) -> tuple[int, ...]:
    """An int or a sequence of ints as a tuple of Python ints."""
    return numeric_args.as_int_tuple(value, name)


def check_axis(axis: int, ndim: int, name: str = 'axis', extra: int = 0) -> int:
    """Return ``axis`` in ``[0, ndim + extra)``; raise InvalidType when out of range.

    ``extra`` is 1 for functions that insert an axis (``stack``, ``expand_dims``).
    """
    n = ndim + extra
    if not -n <= axis < n:
        raise type_check.InvalidType(f'{-n} <= {name} < {n}', f'{name} = {axis}',
                                     f'{name} {axis} is out of bounds for an input of '
                                     f'{ndim} dimension(s) (valid: {-n} <= {name} < {n})')
    return axis % n


def check_axis_arg(axis: Any, allow_tuple: bool = True) -> Any:
    """Validate the type of an ``axis`` argument (None, int or tuple of ints).

    Raises:
        TypeError: for anything else.
        ValueError: for duplicate axes.
    """
    if axis is None:
        return None
    if numeric_args.is_int(axis):
        return numeric_args.as_int(axis)
    if allow_tuple and isinstance(axis, tuple):
        if not all(numeric_args.is_int(a) for a in axis):
            raise TypeError(f'axis must be None, an int or a tuple of ints, not {axis!r}')
        axis = tuple(numeric_args.as_int(a) for a in axis)
        if len(set(axis)) != len(axis):
            raise ValueError(f'duplicate value in axis: {axis}')
        return axis
    kinds = 'None, an int or a tuple of ints' if allow_tuple else 'None or an int'
    raise TypeError(f'axis must be {kinds}, not {axis!r}')


def expect_noted(note: Callable[[], str], *conditions: Any) -> None:
    """``type_check.expect(*conditions)`` (the conditions written as Chainer v7 wrote
    them, so that ``str(e)`` is v7's text), with ``note()`` (the project's own
    explanation) attached to a failure as an exception note. The note is built only
    when a check fails outside light mode (light-mode failures are checked again)."""
    try:
        type_check.expect(*conditions)
    except type_check.InvalidType as e:
        if not type_check.in_light_mode():
            e.add_note(note())
        raise


def axis_note(axis: int, ndim: int, name: str = 'axis', extra: int = 0) -> Callable[[], str]:
    """The note of an out-of-range ``axis`` (see :func:`expect_noted`), built lazily."""
    n = ndim + extra
    return lambda: (f'{name} {axis} is out of bounds for an input of {ndim} dimension(s) '
                    f'(valid: {-n} <= {name} < {n})')


def expect_axis(ndim_expr: Any, axis: int, name: str = 'axis', *,
                negative: str = '>=') -> int:
    """Check ``axis`` against the number of axes ``ndim_expr`` (an input's ``.ndim``)
    as most v7 nodes do: ``x.ndim > axis`` for ``axis >= 0``; for a negative axis
    ``x.ndim >= -axis`` (``negative='>='``) or ``x.ndim > -axis - 1``
    (``negative='>'``), whichever that node wrote. Returns ``axis`` made non-negative."""
    ndim = type_check.eval(ndim_expr)
    if axis >= 0:
        cond = ndim_expr > axis
    elif negative == '>=':
        cond = ndim_expr >= -axis
    else:
        cond = ndim_expr > -axis - 1
    expect_noted(axis_note(axis, ndim, name), cond)
    return axis % ndim


def check_size(value: Any, name: str, minimum: int = 0, maximum: int = MAX_SIZE) -> int:
    """``value`` as an int in ``[minimum, maximum]`` (a size, count or length)."""
    n = as_int(value, name)
    if not minimum <= n <= maximum:
        raise ValueError(f'{name} must be an int in [{minimum}, {maximum}], not {n}')
    return n


def check_shape(shape: Any, name: str = 'shape', unknown: bool = False) -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints) as a tuple of non-negative ints;
    with ``unknown``, one entry may be -1 (inferred)."""
    dims = as_int_tuple(shape, name)
    if len(dims) > 64:
        raise ValueError(f'{name} has {len(dims)} dimensions; at most 64 are supported')
    for d in dims:
        if d < (-1 if unknown else 0) or d > MAX_SIZE:
            raise ValueError(f'{name} has an invalid dimension {d}: {dims}')
    if unknown and dims.count(-1) > 1:
        raise ValueError(f'{name} may contain at most one -1, not {dims}')
    return dims


def check_real(value: Any, name: str, positive: bool = False) -> float:
    """``value`` as a finite float (positive with ``positive``)."""
    if not numeric_args.is_real(value):
        raise TypeError(f'{name} must be a real number, not {type(value).__name__}')
    if numeric_args.is_int(value) and abs(int(value)) > 2**53:
        raise ValueError(f'{name} = {value} is too large to be represented as a float')
    f = float(value)
    if not math.isfinite(f) or (positive and not f > 0):
        raise ValueError(f'{name} must be a finite{" positive" if positive else ""} '
                         f'number, not {value!r}')
    return f


class UnsupportedValueError(NotImplementedError, ValueError):
    """An argument value that Chainer v7 refused with NotImplementedError.

    Also a ValueError, as every other bad argument value.
    """


class InvalidValue(type_check.InvalidType, ValueError):
    """An InvalidType that is also a ValueError: a failure the project reported as a
    ValueError where v7's type check raised InvalidType (both ``except`` forms work)."""


class BadReturnError(RuntimeError, TypeError):
    """A user callable returned the wrong type (v7 raised RuntimeError; also a TypeError)."""


def expect_float(in_types: Any, names: tuple[str, ...] | None = ('x',)) -> None:
    """Type-check that every input is a floating-point array of one dtype.

    As Chainer v7 writes it: the inputs are named ``names`` (None: left as
    ``in_types[i]``), then the first input's kind is checked, then each other
    input's dtype against the first's, so that the same failure is reported.
    """
    if names is not None:
        type_check.argname(in_types, names)
    first = in_types[0]
    type_check.expect(first.dtype.kind == 'f')
    for i in range(1, len(in_types)):
        type_check.expect(first.dtype == in_types[i].dtype)


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


def check_types(label: str, names: Sequence[str], arrays: Sequence[Any],
                check: Callable[..., None], *, argnames: bool = True) -> None:
    """Run ``check(*in_types)`` with type_check on ``arrays`` (when enabled).

    For functions written as compositions of others, so that they report bad
    inputs like a FunctionNode: TypeError for a non-array, and
    :class:`~chainer.utils.type_check.InvalidType` named after ``label`` (v7's
    node class name). ``names`` name the inputs in messages; with ``argnames``
    False they stay ``in_types[i]`` there, as in v7 where its node left them so.
    """
    if not config.type_check:
        return
    for name, a in zip(names, arrays):
        if not hasattr(a, 'dtype') or not hasattr(a, 'shape'):
            raise TypeError(f'{label}: {name} must be a Variable or an array, '
                            f'not {type(a).__name__}')
    in_types = type_check.get_types(arrays, 'in_types', False)
    if argnames:
        type_check.argname(in_types, tuple(names))
    with type_check.get_function_check_context(_Label(label)):
        check(*in_types)


def v7_type_error(label: str, names: Sequence[str] | None, arrays: Sequence[Any],
                  check: Callable[..., None], *, shapes: Any = None,
                  cls: type = type_check.InvalidType, note: str | None = None,
                  whole: bool = False) -> type_check.InvalidType | None:
    """The InvalidType that v7's check ``check(*in_types)`` raises for ``arrays``.

    For a failure found outside a type check (in a forward, or in a function composed
    of others, where v7 failed inside one of the nodes it composed): the error is
    labelled ``label`` (the v7 node that reported it), its inputs named ``names``
    (None: left as ``in_types[i]``), with ``shapes`` standing for the arrays' own
    (e.g. the shape v7 had reshaped an input to). ``cls`` is InvalidType or a subclass
    that is also the exception the project raised before (ValueError...); ``note``, the
    project's own explanation, is attached as an exception note. With ``whole``,
    ``check`` is given the tuple of types itself (a node's ``check_type_forward``).
    None when the check passes."""
    in_types = type_check.get_types(arrays, 'in_types', False, shapes=shapes)
    if names is not None:
        type_check.argname(in_types, tuple(names))
    try:
        with type_check.get_function_check_context(_Label(label)):
            if whole:
                check(in_types)
            else:
                check(*in_types)
    except type_check.InvalidType as e:
        if cls is not type(e):
            e = type_check._recast(e, cls)
        if note is not None:
            e.add_note(note)
        return e
    return None


def grad_by_recompute(node: FunctionNode, composed: Callable[..., Sequence[Any]],
                      indexes: Sequence[int], grad_outputs: GradOutputs) -> GradInputs:
    """Differentiable gradients of ``node`` through a recomputation of its forward.

    For the backward of a fused FunctionNode when a graph of the backward is
    wanted (double backprop): ``composed`` recomputes the node's outputs from
    its retained inputs (all of them must be retained) with differentiable
    functions, and the gradients are taken through that graph. The inputs are
    passed through identity nodes first, so that the gradients are the node's
    own partial derivatives even when one input depends on another.

    Args:
        node: the FunctionNode whose backward this is.
        composed: function of the input Variables returning the output Variables.
        indexes: the input indexes whose gradients are wanted.
        grad_outputs: the output gradients (Variables or None).

    Returns:
        One gradient Variable (or None) per index.
    """

    inputs = [identity(v) for v in retained_inputs(node)]
    outputs = composed(*inputs)
    pairs = [(y, g) for y, g in zip(outputs, grad_outputs) if g is not None]
    if not pairs:
        return (None,) * len(indexes)
    return tuple(grad([y for y, _ in pairs], [inputs[i] for i in indexes],
                      [g for _, g in pairs], enable_double_backprop=True))


def row_sums(a: Any, xp: Any) -> Any:
    """The sums of ``a`` over its last axis as a matrix-vector product with a vector
    of ones (BLAS; several times faster than a reduction over long rows). On CPU the
    product runs on this thread alone (:class:`chainer._cpu_blas.one_thread`)."""
    if xp is not numpy and a.dtype.char in 'fd' and a.flags.c_contiguous and a.size:
        # one GEMM (chainer._gpu_blas: no batched product, which CuPy cannot run under
        # CUDA graph capture) of the rows with a column of ones
        n = a.shape[-1]
        column = _cpu_blas.dot(a.reshape(-1, n), xp.ones((n, 1), a.dtype))
        return column.reshape(a.shape[:-1])
    ones = xp.ones(a.shape[-1], a.dtype)
    if xp is numpy and a.size > _cpu_blas.SMALL_GEMV:
        with _cpu_blas.one_thread():
            return numpy.matmul(a, ones)
    return xp.matmul(a, ones)


def channel_sum(x3: Any, xp: Any) -> Any:
    """The sum of an ``(A, C, B)`` array over axes 0 and 2 (a GEMV when ``B > 1``)."""
    if x3.shape[2] == 1:
        return first_axis_sum(x3[:, :, 0])
    return first_axis_sum(row_sums(x3, xp))


#: Rows up to which a CuPy matrix's column sums run as one thread per column (for more,
#: CuPy's reduction spreads the rows over more threads).
_COLUMN_KERNEL_MAX_ROWS = 4096
_COLUMN_SUMS = """
extern "C" __global__ void chainer_column_sums_{name}(
        const {t}* __restrict__ a, {t}* __restrict__ out, const int n, const int m,
        const long long row_step, const long long column_step) {{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m) return;
    {acc} s = 0;
    for (int i = 0; i < n; ++i) s += ({acc})a[i * row_step + j * column_step];
    out[j] = ({t})s;
}}
"""
_COLUMN_TYPES = {'f': ('float', 'float'), 'd': ('double', 'double')}


def first_axis_sum(a: Any) -> Any:
    """``a.sum(axis=0)`` of a matrix (a bias gradient): on a C- or F-contiguous CuPy
    matrix of float32 or float64 and up to a few thousand rows, one kernel launch with
    one thread per column (CuPy's reduction costs several times more on the host)."""
    types = _COLUMN_TYPES.get(a.dtype.char)
    if (types is None or type(a) is not cuda.ndarray or a.ndim != 2
            or not 0 < a.shape[0] <= _COLUMN_KERNEL_MAX_ROWS
            or not (a.flags.c_contiguous or a.flags.f_contiguous)):
        return a.sum(axis=0)
    n, m = a.shape
    out = cuda.cupy.empty(m, a.dtype)
    if m:
        steps = (m, 1) if a.flags.c_contiguous else (1, n)
        name = a.dtype.name
        kernel = cuda.raw(_COLUMN_SUMS.format(name=name, t=types[0], acc=types[1]),
                          f'chainer_column_sums_{name}')
        kernel(((m + 127) // 128,), (128,),
               (a, out, numpy.int32(n), numpy.int32(m), numpy.int64(steps[0]),
                numpy.int64(steps[1])))
    return out


def sum_keepdims(a: Any, axis: int) -> Any:
    """``a.sum(axis=axis, keepdims=True)``, faster for long rows on CPU.

    A C-contiguous float32/float64 NumPy array summed over its last axis (rows of 64
    elements or more) goes through :func:`row_sums` (softmax over a vocabulary).
    """
    if (type(a) is numpy.ndarray and a.dtype.char in 'fd' and a.ndim
            and axis in (-1, a.ndim - 1) and a.shape[-1] >= 64 and a.flags.c_contiguous):
        n = a.shape[-1]
        return row_sums(a.reshape(-1, n), numpy).reshape(a.shape[:-1] + (1,))
    return a.sum(axis=axis, keepdims=True)
