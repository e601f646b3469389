"""Assertions on NumPy and ChainerX arrays (and scalars)."""

from __future__ import annotations

from typing import Any

import numpy

import chainerx


def _host(a: Any) -> Any:
    if isinstance(a, chainerx.ndarray):
        return chainerx.to_numpy(a, copy=False)
    return a


def _check_type(a: Any) -> None:
    if not isinstance(a, numpy.ndarray | chainerx.ndarray | numpy.generic | bool | int | float):
        raise AssertionError(f'not an array or a scalar: {type(a).__name__}')


def assert_allclose(x: Any, y: Any, rtol: float = 1e-7, atol: float = 0, equal_nan: bool = True,
                    err_msg: str = '', verbose: bool = True) -> None:
    """Raise AssertionError unless *x* and *y* are equal within ``atol + rtol * |y|``."""
    _check_type(x)
    _check_type(y)
    numpy.testing.assert_allclose(_host(x), _host(y), rtol=rtol, atol=atol,
                                  equal_nan=equal_nan, err_msg=err_msg, verbose=verbose)


def assert_array_equal(x: Any, y: Any, err_msg: str = '', verbose: bool = True) -> None:
    """Raise AssertionError unless *x* and *y* have equal shapes and values (NaNs match)."""
    _check_type(x)
    _check_type(y)
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


def _check_props(x: Any, y: Any, dtype_check: bool, strides_check: bool) -> None:
    for a in (x, y):
        if not isinstance(a, numpy.ndarray | chainerx.ndarray):
            raise AssertionError(f'not an array: {type(a).__name__}')
    if dtype_check and x.dtype != y.dtype:
        raise AssertionError(f'dtypes differ: {x.dtype} and {y.dtype}')
    # shapes as NumPy's assertions compare them: equal, or one of them 0-d
    if x.shape != y.shape and x.ndim and y.ndim:
        raise AssertionError(f'shapes differ: {x.shape} and {y.shape}')
    if dtype_check and strides_check and x.strides != y.strides:
        raise AssertionError(f'strides differ: {x.strides} and {y.strides}')


def assert_array_equal_ex(x: Any, y: Any, *args: Any, dtype_check: bool = True,
                          strides_check: bool = True, **kwargs: Any) -> None:
    """:func:`assert_array_equal` that also compares dtypes and strides (strides only
    when dtypes are compared)."""
    _check_props(x, y, dtype_check, strides_check)
    assert_array_equal(x, y, *args, **kwargs)


def assert_allclose_ex(x: Any, y: Any, *args: Any, dtype_check: bool = True,
                       strides_check: bool = True, **kwargs: Any) -> None:
    """:func:`assert_allclose` that also compares dtypes and strides."""
    _check_props(x, y, dtype_check, strides_check)
    assert_allclose(x, y, *args, **kwargs)
