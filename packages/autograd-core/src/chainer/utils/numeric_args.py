"""NumPy-typed numbers accepted wherever a Python number is.

Chainer v7 programs pass NumPy scalars (``numpy.int64(3)``, ``numpy.float32(0.5)``) and
0-d arrays (``numpy.array(3)``) as sizes, shapes, axes, ratios and hyperparameters:
``n_vocab = numpy.max(train) + 1`` then ``L.EmbedID(n_vocab, n_units)``. The helpers
here turn such values into plain Python numbers once, where an argument is taken, so
that the rest of the code (and its results, dtypes included) is the same as for a Python
number. A plain ``int`` or ``float`` goes through at the cost of one type test.

What must stay refused is refused: a ``bool`` is not a size, a ``float`` is not an int.
The helpers take any value (typed ``Any``): telling whether it fits is their job.

This module is the public helper API that the other distributions of the ``chainer``
namespace (links, optimizers, training) use for the same purpose.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from chainer.backends import numbers

_BOOLS = (bool, numpy.bool_)
_REAL_KINDS = frozenset('iuf')


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (a Python int, NumPy integer or 0-d integer
    array), ``bool`` excluded (:func:`chainer.backends.numbers.is_int`)."""
    return numbers.to_int(value) is not None


def as_int(value: Any, name: str = 'argument') -> int:
    """``value`` as a Python int.

    Accepts a Python int, a NumPy integer and a 0-d integer array (what
    :func:`operator.index` takes).

    Raises:
        TypeError: for a ``bool``, a float or anything else that is not an integer.
    """
    result = numbers.to_int(value)
    if result is None:
        raise TypeError(f'{name} must be an int, not {type(value).__name__}')
    return result


def as_int_tuple(value: Any, name: str = 'argument') -> tuple[int, ...]:
    """An integer (see :func:`as_int`) or a sequence of them as a tuple of Python ints.

    Raises:
        TypeError: for anything else (a ``bool`` or float item included).
    """
    if type(value) is tuple and all(type(v) is int for v in value):
        return value
    if not isinstance(value, _BOOLS):
        try:
            return (operator.index(value),)
        except TypeError:
            pass
    try:
        return tuple(as_int(v, name) for v in value)
    except TypeError:
        raise TypeError(f'{name} must be an int or a sequence of ints, not {value!r}') from None


def as_shape(shape: Any, name: str = 'shape') -> tuple[int, ...]:
    """A shape (an integer or a sequence of integers) as a tuple of Python ints.

    Only the types are checked (negative entries are left to the caller).

    Raises:
        TypeError: when ``shape`` is neither.
    """
    return as_int_tuple(shape, name)


def as_axis(axis: Any, name: str = 'axis') -> Any:
    """An axis argument (None, an integer, or a tuple or list of integers) with its
    integers as Python ints; None and tuples stay None and tuples, a list becomes a
    tuple.

    Raises:
        TypeError: for anything else.
    """
    if axis is None or type(axis) is int:
        return axis
    if isinstance(axis, (tuple, list)):
        if type(axis) is tuple and all(type(a) is int for a in axis):
            return axis
        try:
            return tuple(as_int(a, name) for a in axis)
        except TypeError:
            raise TypeError(f'{name} must be None, an int or a tuple of ints, '
                            f'not {axis!r}') from None
    try:
        return as_int(axis, name)
    except TypeError:
        raise TypeError(f'{name} must be None, an int or a tuple of ints, '
                        f'not {axis!r}') from None


def is_real(value: Any) -> bool:
    """Whether ``value`` is a real number: a Python int or float, a NumPy integer or
    floating scalar, or a 0-d array of such a dtype (``bool`` excluded)."""
    if type(value) is float or type(value) is int:
        return True
    if isinstance(value, (int, float, numpy.integer, numpy.floating)):
        return not isinstance(value, bool)
    return (isinstance(value, numpy.ndarray) and value.ndim == 0
            and value.dtype.kind in _REAL_KINDS)


def as_real(value: Any, name: str = 'argument') -> float:
    """``value`` (see :func:`is_real`) as a Python float.

    Raises:
        TypeError: for a ``bool`` or anything else that is not a real number.
    """
    if type(value) is float:
        return value
    if not is_real(value):
        raise TypeError(f'{name} must be a real number, not {type(value).__name__}')
    return float(value)


def py_number(value: Any) -> Any:
    """A NumPy scalar or 0-d NumPy array of a numeric or bool dtype as the equal Python
    number (``numpy.float32(0.5)`` -> ``0.5``); anything else is returned unchanged.

    For numbers stored and later mixed with arrays (hyperparameters, ratios): under
    NumPy 2 a ``numpy.float64`` scalar would promote a float32 array to float64, where a
    Python float keeps the array's dtype, as NumPy 1 did for both.
    """
    cls = type(value)
    if cls is float or cls is int or value is None:
        return value
    if isinstance(value, numpy.generic):
        return value.item() if value.dtype.kind in 'biuf' else value
    if cls is numpy.ndarray and value.ndim == 0 and value.dtype.kind in 'biuf':
        return value.item()
    return value


def py_numbers(values: Any) -> Any:
    """:func:`py_number` of every item of a plain list or tuple (of the same type), or of
    ``values`` itself when it is not one."""
    if type(values) is tuple or type(values) is list:
        return type(values)(py_number(v) for v in values)
    return py_number(values)
