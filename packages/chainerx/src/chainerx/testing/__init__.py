"""Test helpers for ChainerX: dtype lists, array assertions, NumPy-comparison decorators."""

from __future__ import annotations

from chainerx.testing import dtypes
from chainerx.testing._array import (
    assert_allclose,
    assert_allclose_ex,
    assert_array_equal,
    assert_array_equal_ex,
)
from chainerx.testing._helper import ignore, numpy_chainerx_allclose, numpy_chainerx_array_equal
from chainerx.testing._numpy import _fromnumpy
from chainerx.testing.dtypes import (
    all_dtypes,
    float_dtypes,
    integral_dtypes,
    nonfloat_dtypes,
    numeric_dtypes,
    parametrize_dtype_specifier,
    signed_dtypes,
    signed_integral_dtypes,
    unsigned_dtypes,
)

__all__ = [
    '_fromnumpy', 'all_dtypes', 'assert_allclose', 'assert_allclose_ex', 'assert_array_equal',
    'assert_array_equal_ex', 'dtypes', 'float_dtypes', 'ignore', 'integral_dtypes',
    'nonfloat_dtypes', 'numeric_dtypes', 'numpy_chainerx_allclose',
    'numpy_chainerx_array_equal', 'parametrize_dtype_specifier', 'signed_dtypes',
    'signed_integral_dtypes', 'unsigned_dtypes',
]
