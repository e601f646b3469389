"""Horizontal (column-wise) concatenation."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from chainer.functions._composite import CompositeNode
from chainer.functions._guard import guarded
from chainer.functions._util import InvalidValue, check_types
from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import VariableOrArray


def _atleast(x: Any, ndim: int) -> Any:
    shape = as_array(x).shape
    if len(shape) >= ndim:
        return x
    new: tuple[int, ...]
    if ndim == 1:
        new = (1,)
    elif ndim == 2:
        new = (1,) * (2 - len(shape)) + shape
    elif len(shape) == 0:
        new = (1, 1, 1)
    elif len(shape) == 1:
        new = (1, shape[0], 1)
    else:
        new = shape + (1,)
    return reshape(x, new)


# the axis each function joins along, and the number of dimensions up to which v7
# compared the inputs' shapes whole (hstack: not at all) instead of axis by axis
_JOIN_AXIS = {'hstack': 1, 'vstack': 0, 'dstack': 2}
_WHOLE_UP_TO = {'hstack': 1, 'vstack': 1, 'dstack': 2}


def _expect_joinable(name: str, *in_types: Any) -> None:
    """v7's type check of Hstack/Vstack/Dstack, in its order and wording: at least one
    input, then each input's dtype and ndim against the first's, then its shape
    (all but the joined axis; the whole shape where v7 compared it whole)."""
    # an Expr, whose operators are made at run time
    count: Any = type_check.TypeInfoTuple(in_types).size()
    type_check.expect(count > 0)
    x0 = in_types[0]
    ndim = type_check.eval(x0.ndim)
    join = _JOIN_AXIS[name]
    for xi in in_types[1:]:
        type_check.expect(x0.dtype == xi.dtype, x0.ndim == xi.ndim)
        if ndim <= _WHOLE_UP_TO[name]:
            if name != 'hstack':  # v7's hstack leaves 0-d/1-d shapes unchecked here
                type_check.expect(x0.shape == xi.shape)
            continue
        for d in range(ndim):
            if d != join:
                type_check.expect(x0.shape[d] == xi.shape[d])


def _check_inputs(xs: Any, name: str) -> list[Any]:
    """``xs`` as a list, type-checked as v7's Hstack/Vstack/Dstack (InvalidType named
    after that node; ValueError for an empty list when type checks are off)."""
    xs = list(xs)
    arrays = [as_array(x) for x in xs]
    for i, a in enumerate(arrays):
        if not hasattr(a, 'dtype') or not hasattr(a, 'shape'):
            raise TypeError(f'{name}: xs[{i}] must be a Variable or an array, '
                            f'not {type(a).__name__}')
    try:
        check_types(name.capitalize(), [f'x{i}' for i in range(len(xs))], arrays,
                    functools.partial(_expect_joinable, name), argnames=name != 'vstack')
    except type_check.InvalidType as e:
        if xs:
            raise
        raise type_check._recast(e, InvalidValue) from None  # also the ValueError it was
    if not xs:
        raise ValueError(f'{name} needs at least one input')
    return xs


# the least number of dimensions each function brings its inputs to
_MIN_NDIM = {'hstack': 1, 'vstack': 2, 'dstack': 3}


def _joinable_inputs(xs: Any, name: str) -> list[Any]:
    """``xs`` checked as v7's node of ``name`` checked them (:func:`_check_inputs`), each
    reshaped to the least number of dimensions of ``name``."""
    return [_atleast(x, _MIN_NDIM[name]) for x in _check_inputs(xs, name)]


class _StackNode(CompositeNode):
    """A function of the stack family (the subclass's ``_function``) as one node.

    ``apply(xs)`` gives a one-element tuple; each input's gradient is its slice of the
    output gradient.
    """

    _function: Any

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        return type(self)._function(list(xs)),


@guarded
def hstack(xs: Sequence[VariableOrArray]) -> Variable:
    """Concatenate variables horizontally (like :func:`numpy.hstack`).

    One-dimensional (and zero-dimensional) inputs are joined along the first
    axis, the others along the second.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes, ndims or dtypes.
    """
    xs = _joinable_inputs(xs, 'hstack')
    axis = 0 if as_array(xs[0]).ndim == 1 else 1
    return concat(xs, axis=axis)


class Hstack(_StackNode):
    """Concatenate the inputs along the second axis (the first for 1-D inputs) as one node.

    The node form of :func:`hstack` (``Hstack().apply(xs)`` gives a one-element tuple).
    """

    _function = staticmethod(hstack)
