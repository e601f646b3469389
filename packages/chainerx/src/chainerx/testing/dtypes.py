"""Lists of ChainerX's dtype names and a pytest parametrization over dtype specifiers
(``chainerx.testing.dtypes``, as in v7; the lists are also in ``chainerx.testing``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy

all_dtypes = ('bool_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'float16', 'float32',
              'float64')
float_dtypes = ('float16', 'float32', 'float64')
signed_dtypes = ('int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64')
unsigned_dtypes = ('uint8',)
integral_dtypes = ('int8', 'int16', 'int32', 'int64', 'uint8')
signed_integral_dtypes = ('int8', 'int16', 'int32', 'int64')
nonfloat_dtypes = ('bool_', 'int8', 'int16', 'int32', 'int64', 'uint8')
numeric_dtypes = ('int8', 'int16', 'int32', 'int64', 'uint8', 'float16', 'float32',
                  'float64')


def _specifiers(names: Iterable[str]) -> list[Any]:
    """Every way to name each dtype: the name, the NumPy type, the dtype, the char."""
    out: list[Any] = []
    for name in names:
        dt = numpy.dtype(name)
        out.extend([dt.name, dt.type, dt, dt.char])
    return out


def parametrize_dtype_specifier(argname: str, dtypes: Iterable[str] | None = None,
                                additional_args: tuple[Any, ...] | None = None) -> Any:
    """Parametrize *argname* over the specifiers of *dtypes* (default: all) and
    *additional_args*."""
    import pytest

    args = _specifiers(all_dtypes if dtypes is None else dtypes)
    if additional_args is not None:
        args.extend(additional_args)
    return pytest.mark.parametrize(argname, args)
