"""Dtypes and ChainerX's type promotion.

ChainerX's dtypes are NumPy's (``chainerx.float32 is numpy.float32``); its promotion
differs from NumPy's: between arrays, a float wins over any integer (``int64`` with
``float16`` gives ``float16``); a scalar only raises the kind (an int array with a float
scalar gives ``float32``, a bool array with an int scalar ``int32``), never the size.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy

from chainerx._errors import DtypeError

ALL_DTYPES = tuple(numpy.dtype(n) for n in (
    'bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'float16', 'float32', 'float64'))
_ALLOWED = frozenset(ALL_DTYPES)
FLOAT32 = numpy.dtype('float32')
INT32 = numpy.dtype('int32')
BOOL = numpy.dtype('bool')
# kind order: bool < integer < float
_KIND_RANK = {'b': 0, 'u': 1, 'i': 1, 'f': 2}


def to_dtype(spec: Any) -> numpy.dtype:
    """The dtype a specifier names (a dtype, a type, a name), checked to be ChainerX's."""
    if spec is None:
        return FLOAT32
    try:
        dtype = numpy.dtype(spec)
    except TypeError as e:
        raise TypeError(f'not a dtype: {spec!r}') from e
    if dtype not in _ALLOWED:
        raise DtypeError(f'ChainerX does not support the dtype {dtype.name}')
    return dtype


def kind_rank(dtype: numpy.dtype) -> int:
    """0 for bool, 1 for integers, 2 for floats."""
    return _KIND_RANK[dtype.kind]


def is_scalar(value: Any) -> bool:
    """Whether *value* is a Python or NumPy scalar (bool, int or float)."""
    return isinstance(value, (bool, numbers.Number, numpy.bool_)) and not isinstance(
        value, complex)


def scalar_kind_rank(value: Any) -> int:
    """The kind rank of a scalar operand."""
    if isinstance(value, (bool, numpy.bool_)):
        return 0
    if isinstance(value, (numbers.Integral, numpy.integer)):
        return 1
    return 2


def promote_dtypes(dtypes: list[numpy.dtype]) -> numpy.dtype:
    """The result dtype of arrays of *dtypes* (ChainerX's rule: floats win)."""
    first = dtypes[0]
    if all(d == first for d in dtypes):
        return first
    top = max(kind_rank(d) for d in dtypes)
    same_kind = [d for d in dtypes if kind_rank(d) == top]
    return numpy.result_type(*same_kind)


def result_type(*args: Any) -> numpy.dtype:
    """The dtype of an operation on ChainerX arrays, dtypes and scalars in *args*."""
    dtypes: list[numpy.dtype] = []
    scalar_rank = -1
    for a in args:
        dtype = getattr(a, 'dtype', None)
        if dtype is not None and not isinstance(a, numpy.generic):
            dtypes.append(numpy.dtype(dtype))
        elif isinstance(a, numpy.dtype | type):
            dtypes.append(to_dtype(a))
        elif is_scalar(a):
            scalar_rank = max(scalar_rank, scalar_kind_rank(a))
        else:
            raise TypeError(f'cannot take the dtype of {type(a).__name__}')
    if not dtypes:
        raise TypeError('result_type needs at least one array or dtype')
    dtype = promote_dtypes(dtypes)
    if scalar_rank > kind_rank(dtype):
        return FLOAT32 if scalar_rank == 2 else INT32
    return dtype


def float_result(dtype: numpy.dtype) -> numpy.dtype:
    """The dtype a float-valued routine gives for input *dtype* (ints -> float32)."""
    return dtype if dtype.kind == 'f' else FLOAT32


def default_dtype(value: Any) -> numpy.dtype:
    """ChainerX's default dtype for a Python scalar: bool, int32 or float32."""
    rank = scalar_kind_rank(value)
    return (BOOL, INT32, FLOAT32)[rank]
