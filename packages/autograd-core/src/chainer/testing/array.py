"""Array comparison for tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


def _as_noncontiguous_array(array: Any) -> Any:
    """A non-contiguous view equal to ``array`` (NumPy, CuPy or ChainerX) on its device;
    the array itself where none can exist (0-dim, one element, None); tuples and lists
    are converted item by item (v7's private helper, which its tests import)."""
    if isinstance(array, (tuple, list)):
        return type(array)(_as_noncontiguous_array(a) for a in array)
    if array is None or array.ndim == 0 or array.size <= 1:
        return array
    from chainer import backend

    device = backend.get_device_from_array(array)
    # every axis of an array twice as large, stepped by 2 (v7's layout: views computed
    # from such inputs have the same strides on every backend)
    with device:
        big = device.xp.empty(tuple(2 * n for n in array.shape), dtype=array.dtype)
    view = big[(slice(None, None, 2),) * array.ndim]
    view[...] = array
    return view


def _host(x: Any) -> Any:
    x = getattr(x, 'array', x)
    return cuda.to_cpu(x) if not numpy.isscalar(x) else numpy.asarray(x)


def assert_allclose(x: VariableOrArray | complex, y: VariableOrArray | complex, atol: float = 1e-5,
                    rtol: float = 1e-4, verbose: bool = True) -> None:
    """Assert that ``x`` and ``y`` (arrays, Variables or scalars) are close elementwise.

    Raises:
        AssertionError: with the largest errors when they are not close.
    """
    hx, hy = _host(x), _host(y)
    try:
        numpy.testing.assert_allclose(hx, hy, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as e:
        if not verbose:
            raise
        raise AssertionError(f'{e}\nx: {hx!r}\ny: {hy!r}') from None
