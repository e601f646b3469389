"""Private helpers shared by the math functions (axis checks, masks, lazy SciPy)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._util import check_axis_arg as check_axis_arg
from chainer.functions._util import expect_float as expect_float
from chainer.functions._util import v7_type_error
from chainer.functions.array.broadcast import broadcast_to, expect_broadcast_to
from chainer.functions.array.cast import cast
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose
from chainer.functions.math.sum import sum_to
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable, as_variable
from chainer.variable import as_array as array_of  # noqa: F401 (math modules import it)

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray


def cumulative_axis(x: Any, axis: Any) -> tuple[Any, int]:
    """Check the ``axis`` of a cumulative function; with None, flatten ``x`` and use axis 0.

    Raises:
        TypeError: when ``axis`` is neither None nor an int.
    """

    axis = check_axis_arg(axis, allow_tuple=False)
    if axis is None:
        return reshape(as_variable(x), (-1,)), 0
    return x, axis


def expect_axis(x_type: Any, axis: Any) -> None:
    """Type-check that every entry of ``axis`` indexes an axis of ``x_type``."""
    if axis is None:
        return
    # as v7 writes it: ``x.ndim > axis`` (``x.ndim > -axis - 1`` for a negative one)
    for a in (axis if isinstance(axis, tuple) else (axis,)):
        a = int(a)
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


class AxisFunction(FunctionNode):
    """A function of one float input along ``self.axis``, labelled ``_name``."""

    _name = ''
    _label: str | None = None  # v7's label, where it is not ``_name``
    _argnames: tuple[str, ...] | None = ('x',)  # None: in_types[0], as v7 where unnamed
    axis: Any = None

    @property
    def label(self) -> str:
        return self._label or self._name

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, self._argnames)
        expect_axis(in_types[0], self.axis)


def expand_reduced(y: Any, in_shape: tuple[int, ...], axes: tuple[int, ...],
                   keepdims: bool) -> Any:
    """Reshape ``y`` (a Variable or an array) reduced over ``axes`` so that it broadcasts to
    ``in_shape``."""
    if keepdims or not in_shape:
        return y
    shape = list(in_shape)
    for a in axes:
        shape[a] = 1
    return y.reshape(tuple(shape))


class AxisShapeError(type_check.InvalidType, ValueError, AssertionError):
    """The shape of the operand of a Caffe-style broadcast does not fit the input.

    An InvalidType reading as v7's (which failed in the BroadcastTo it composed), a
    ValueError as the project raised before, and an AssertionError, which v7 raises
    for it in debug mode."""


def _axis_shape_error(x: Any, y: Any, axis: int, fn: str) -> AxisShapeError:

    note = f'{fn}: y of shape {y.shape} does not match x of shape {x.shape} from axis {axis}'
    # v7 reshaped y to this shape (a negative count of ones is none) and broadcast it
    y1_shape = (1,) * axis + tuple(y.shape) + (1,) * (len(x.shape) - axis - len(y.shape))
    err = v7_type_error('BroadcastTo', ('x',), (y,),
                        lambda t: expect_broadcast_to(t, tuple(x.shape)),
                        shapes=(y1_shape,), cls=AxisShapeError, note=note)
    if err is None:  # v7 broadcast axes of length 1 here; the project does not
        err = AxisShapeError('', '', note)
        err._context = 'BroadcastTo'
    return err  # type: ignore[return-value]


def broadcast_from_axis(x: Variable, y: Variable, axis: int, fn: str) -> Variable:
    """Broadcast ``y`` to ``x.shape`` with its axes placed from ``axis`` on (Caffe style).

    Raises:
        TypeError: when ``axis`` is not an int.
        AxisShapeError: (a ValueError) naming ``fn``, when ``y.shape`` is not
            ``x.shape[axis:axis + y.ndim]``.
    """

    if not numeric_args.is_int(axis):
        raise TypeError(f'axis must be an int, not {axis!r}')
    axis = numeric_args.as_int(axis)
    if axis < 0:
        axis += x.ndim
    if not 0 <= axis <= x.ndim - y.ndim or x.shape[axis:axis + y.ndim] != y.shape:
        raise _axis_shape_error(x, y, axis, fn)
    shape = (1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim)
    return broadcast_to(reshape(y, shape), x.shape)


def broadcast_grad(gy: Any, shape: tuple[int, ...]) -> Any:
    """Broadcast a gradient Variable to ``shape`` (no-op when it already has it)."""

    return gy if gy.shape == shape else broadcast_to(gy, shape)


def sum_grad(gx: Any, shape: tuple[int, ...]) -> Any:
    """Sum a gradient Variable down to ``shape`` (the reverse of broadcasting)."""

    return gx if gx.shape == shape else sum_to(gx, shape)


def cast_like(g: Any, x: Any) -> Any:
    """Cast a gradient Variable to the dtype of its input ``x`` (no-op when it has it).

    Products of operands of mixed float dtypes run in the promoted dtype; each gradient
    goes back in its operand's dtype.
    """
    if g.dtype == x.dtype:
        return g

    return cast(g, x.dtype)


def const(a: Any) -> Variable:
    """Wrap an array as a constant Variable (no gradient)."""
    return Variable(a, requires_grad=False)


def flip(x: Any, axis: int) -> Any:
    """Reverse a Variable along ``axis`` (differentiable)."""

    index = (slice(None),) * axis + (slice(None, None, -1),)
    return get_item(x, index)


def nondifferentiable(node: Any, x: Any) -> Variable:
    """Apply ``node`` to ``x`` and return its output cut from the graph."""
    y, = node.apply((x,))
    return Variable(y.array, requires_grad=False)


def special(xp: Any) -> Any:
    """The special-function module for ``xp``: scipy.special or cupyx.scipy.special.

    Raises:
        ImportError: without SciPy (or CuPy's cupyx), naming the extra to install.
    """
    if xp is numpy:
        try:
            import scipy.special
        except ImportError:
            raise ImportError(
                'this special function needs SciPy on the CPU: '
                'pip install chainer-autograd-core[scipy]') from None
        return scipy.special
    try:
        import cupyx.scipy.special
    except ImportError:
        raise ImportError('this special function needs cupyx.scipy.special (part of CuPy) '
                          'on the GPU') from None
    return cupyx.scipy.special


def special_call(name: str, dtype: Any, *args: Any) -> Any:
    """Evaluate ``special.<name>(*args)`` and cast the result to ``dtype``.

    float16 arrays are computed in float32 (SciPy has no half-precision kernels).
    """
    xp = backend.get_array_module(*args)
    fn = getattr(special(xp), name)
    args = tuple(a.astype(numpy.float32) if getattr(a, 'dtype', None) == numpy.float16 else a
                 for a in args)
    return utils.force_array(fn(*args), dtype)


class MaskGrad(FunctionNode):
    """``gy * mask`` for a constant mask: linear in ``gy``, so its gradient is itself."""

    def __init__(self, mask: Any) -> None:
        self.mask = mask

    @property
    def label(self) -> str:
        return 'MaskGrad'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return utils.force_array(gy * self.mask, gy.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MaskGrad(self.mask).apply(grad_outputs)


def mask_grad(gy: Any, mask: Any) -> Variable:
    """``gy * mask`` (``mask`` a boolean or float array held as a constant)."""
    return MaskGrad(mask).apply((gy,))[0]


def move_axes_last(x: Any, axes: tuple[int, ...]) -> tuple[Any, tuple[int, ...]]:
    """Transpose ``x`` (a Variable) so that ``axes`` come last and flatten them into one.

    Returns:
        The ``(..., n)`` variable and the transposed shape (to undo with
        :func:`restore_axes`).
    """

    rest = tuple(a for a in range(x.ndim) if a not in axes)
    perm = rest + tuple(axes)
    xt = transpose(x, perm) if perm != tuple(range(x.ndim)) else x
    lead = xt.shape[:len(rest)]
    n = utils.size_of_shape(xt.shape[len(rest):])
    return reshape(xt, lead + (n,)), perm


def restore_axes(y: Any, shape: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    """Undo :func:`move_axes_last` for a variable ``y`` of the flattened layout."""

    ndim = len(shape)
    rest = tuple(a for a in range(ndim) if a not in axes)
    perm = rest + tuple(axes)
    y = reshape(y, tuple(shape[a] for a in perm))
    if perm == tuple(range(ndim)):
        return y
    return transpose(y, tuple(perm.index(a) for a in range(ndim)))


def exclusive_matrix(xt: Any) -> Any:
    """From ``xt`` of shape ``(..., n)`` build ``(..., n, n)`` with row ``i`` equal to
    ``xt`` except a one at position ``i`` (differentiable)."""

    n = xt.shape[-1]
    xp = backend.get_array_module(xt.array)
    eye = xp.eye(n, dtype=bool)
    x2 = broadcast_to(reshape(xt, xt.shape[:-1] + (1, n)), xt.shape[:-1] + (n, n))
    return mask_grad(x2, ~eye) + const(xp.broadcast_to(eye, x2.shape).astype(xt.dtype))
