"""Array comparison for tests."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.backends import cuda


def _host(x: Any) -> Any:
    x = getattr(x, 'array', x)
    return cuda.to_cpu(x) if not numpy.isscalar(x) else numpy.asarray(x)


def assert_allclose(x: Any, y: Any, atol: float = 1e-5, rtol: float = 1e-4,
                    verbose: bool = True) -> None:
    """Assert that ``x`` and ``y`` (arrays, Variables or scalars) are close elementwise.

    Raises:
        AssertionError: with the largest errors when they are not close.
    """
    x = _host(x)
    y = _host(y)
    try:
        numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as e:
        if not verbose:
            raise
        raise AssertionError(f'{e}\nx: {x!r}\ny: {y!r}') from None
