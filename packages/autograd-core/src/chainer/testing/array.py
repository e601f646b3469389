"""Array comparison for tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


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
