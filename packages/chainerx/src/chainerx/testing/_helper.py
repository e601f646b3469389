"""Decorators that run a test body once with NumPy and once with ChainerX and compare
the results (values, dtypes, shapes, strides; errors)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy

import chainerx
from chainerx.testing import _array


class ignore:
    """Returned by a test body (from both runs) to skip the comparison."""


def _run(func: Callable[..., Any], name: str, xp: Any, args: tuple[Any, ...],
         kwargs: dict[str, Any]) -> tuple[Any, BaseException | None]:
    try:
        return func(*args, **{**kwargs, name: xp}), None
    except Exception as e:
        return None, e


def _check_errors(np_err: BaseException | None, chx_err: BaseException | None,
                  accept: tuple[type[BaseException], ...]) -> bool:
    """True when both runs raised an accepted error; raise when the errors differ."""
    if np_err is None and chx_err is None:
        return False
    if np_err is not None and chx_err is not None and accept and \
            isinstance(np_err, accept) and isinstance(chx_err, accept):
        return True
    raise AssertionError(
        f'errors differ: NumPy raised {np_err!r}, ChainerX raised {chx_err!r}') from (
            chx_err or np_err)


def _compare(np_res: Any, chx_res: Any, check: Callable[[Any, Any], None]) -> None:
    np_ignore = isinstance(np_res, ignore)
    chx_ignore = isinstance(chx_res, ignore)
    if np_ignore or chx_ignore:
        if np_ignore and chx_ignore:
            return
        raise AssertionError('only one of NumPy and ChainerX returned ignore()')
    if isinstance(np_res, tuple | list):
        if type(chx_res) is not type(np_res) or len(np_res) != len(chx_res):
            raise AssertionError(f'results differ: {np_res!r} and {chx_res!r}')
        for a, b in zip(np_res, chx_res):
            _compare(a, b, check)
        return
    if np_res is None or chx_res is None:
        raise AssertionError('a test body returned None')
    if isinstance(np_res, numpy.ndarray | numpy.generic):
        if not isinstance(chx_res, chainerx.ndarray):
            raise AssertionError(
                f'ChainerX returned {type(chx_res).__name__} where NumPy returned an array')
        check(numpy.asarray(np_res), chx_res)
        return
    if isinstance(np_res, chainerx.ndarray):
        raise AssertionError('the NumPy run returned a ChainerX array')
    if type(np_res) is not type(chx_res):
        raise AssertionError(
            f'result types differ: {type(np_res).__name__} and {type(chx_res).__name__}')
    _array.assert_array_equal(np_res, chx_res)


def _decorate(check_factory: Callable[[Any, Any], None], name: str,
              accept_error: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    if isinstance(accept_error, type):
        accept: tuple[type[BaseException], ...] = (accept_error,)
    else:
        accept = tuple(accept_error or ())

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            np_res, np_err = _run(func, name, numpy, args, kwargs)
            chx_res, chx_err = _run(func, name, chainerx, args, kwargs)
            if _check_errors(np_err, chx_err, accept):
                return
            _compare(np_res, chx_res, check_factory)

        sig = inspect.signature(func)
        wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined]
            parameters=[p for p in sig.parameters.values() if p.name != name])
        return wrapper

    return decorator


def _is_float16(*arrays: Any) -> bool:
    return any(numpy.dtype(a.dtype) == numpy.float16 for a in arrays)


def numpy_chainerx_array_equal(*, err_msg: str = '', verbose: bool = True, name: str = 'xp',
                               dtype_check: bool = True, strides_check: bool = True,
                               accept_error: Any = (), float16_rtol: float | None = None,
                               float16_atol: float | None = None) -> Any:
    """Run the test body with ``xp=numpy`` and ``xp=chainerx`` (argument *name*) and
    assert equal results (float16 results within the given tolerances)."""
    def check(np_res: Any, chx_res: Any) -> None:
        if _is_float16(np_res, chx_res) and (float16_rtol or float16_atol):
            _array.assert_allclose_ex(chx_res, np_res, rtol=float16_rtol or 0,
                                      atol=float16_atol or 0, err_msg=err_msg,
                                      verbose=verbose, dtype_check=dtype_check,
                                      strides_check=strides_check)
            return
        _array.assert_array_equal_ex(chx_res, np_res, err_msg=err_msg, verbose=verbose,
                                     dtype_check=dtype_check, strides_check=strides_check)

    return _decorate(check, name, accept_error)


def numpy_chainerx_allclose(*, rtol: float = 1e-7, atol: float = 0, equal_nan: bool = True,
                            err_msg: str = '', verbose: bool = True, name: str = 'xp',
                            dtype_check: bool = True, strides_check: bool = True,
                            accept_error: Any = (), float16_rtol: float = 1e-3,
                            float16_atol: float = 1e-3) -> Any:
    """Like :func:`numpy_chainerx_array_equal`, comparing within *rtol* and *atol*
    (*float16_rtol* and *float16_atol* where a result is float16)."""
    def check(np_res: Any, chx_res: Any) -> None:
        r, a = (float16_rtol, float16_atol) if _is_float16(np_res, chx_res) else (rtol, atol)
        _array.assert_allclose_ex(chx_res, np_res, rtol=r, atol=a, equal_nan=equal_nan,
                                  err_msg=err_msg, verbose=verbose, dtype_check=dtype_check,
                                  strides_check=strides_check)

    return _decorate(check, name, accept_error)
