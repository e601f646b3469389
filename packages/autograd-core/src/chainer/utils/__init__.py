"""Small utilities shared by functions and links."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy

import chainer

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray


def force_array(x: NdArray | numpy.generic | complex, dtype: DTypeSpec | None = None) -> Any:
    """Return ``x`` as an array (0-dim NumPy scalars become 0-dim arrays).

    Args:
        x: an array or a NumPy scalar.
        dtype: cast to this dtype when given.
    """
    if type(x) is numpy.ndarray or not isinstance(x, (numpy.generic, int, float, complex)):
        if dtype is None:
            return x
        return x.astype(dtype, copy=False)
    return numpy.asarray(x) if dtype is None else numpy.asarray(x, dtype=dtype)


def force_type(dtype: DTypeSpec, value: NdArray | numpy.generic | complex) -> Any:
    """Return ``value`` cast to ``dtype`` (scalars become NumPy scalars)."""
    dtype = numpy.dtype(dtype)  # a name or a type too, not only a numpy.dtype
    if numpy.isscalar(value):
        return dtype.type(cast(Any, value))  # (isscalar's narrowing is too wide for mypy)
    arr = cast('NdArray', value)
    if arr.dtype != dtype:
        return arr.astype(dtype, copy=False)
    return arr


def size_of_shape(shape: Iterable[int]) -> int:
    """The number of elements of an array of ``shape``."""
    size = 1
    for s in shape:
        size *= s
    return int(size)


def sum_to(x: NdArray, shape: tuple[int, ...]) -> Any:
    """Sum the array ``x`` down to ``shape`` (the inverse of broadcasting)."""
    if x.shape == shape:
        return x
    ndim = len(shape)
    lead = x.ndim - ndim
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    y = x.sum(axis=axes, keepdims=True)
    if lead > 0:
        y = y.reshape(y.shape[lead:])
    return y


def normalize_axis_tuple(axis: int | Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    """Normalize ``axis`` (None, int or sequence) to a sorted tuple of axes in [0, ndim)."""
    if axis is None:
        return tuple(range(ndim))
    one = isinstance(axis, (int, numpy.integer)) or getattr(axis, 'ndim', None) == 0
    axes = cast('Sequence[int]', (axis,) if one else axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f'axis {a} is out of bounds for an array of dimension {ndim}')
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f'duplicate value in axis: {axis}')
    return tuple(sorted(out))


@contextlib.contextmanager
def tempdir(**kwargs: Any) -> Iterator[str]:
    """Context manager giving a new temporary directory, removed at the end.

    Args:
        **kwargs: passed to :func:`tempfile.mkdtemp` (``suffix``, ``prefix``, ``dir``).
    """
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


from chainer.utils import argument, array, cache, conv, conv_nd, error, imgproc  # noqa: E402

# collections.abc under the name v7 code uses (chainer.utils.collections_abc.Iterable)
from chainer.utils._collections import collections_abc  # noqa: E402
from chainer.utils.conv import get_conv_outsize, get_deconv_outsize  # noqa: E402
from chainer.utils.experimental import experimental  # noqa: E402
from chainer.utils.meta import enable_final, final  # noqa: E402

# the function shadows its module, as in v7 (the module is imported first, then rebound)
from chainer.utils.nondeterministic import nondeterministic  # noqa: E402
from chainer.utils.sparse import CooMatrix, get_order, to_coo  # noqa: E402
from chainer.utils.walker_alias import WalkerAlias  # noqa: E402

# conv_nd_kernel and precision are imported on first access (chainer.utils.precision)
__getattr__ = chainer._lazy.submodule_getattr(__name__)
