"""ChainerX placeholder: Chainer v7 code that imports ``chainerx`` still imports.

ChainerX (Chainer's C++ array backend) is not provided by this project. As Chainer v7
built without ChainerX, :func:`is_available` returns False and :class:`ndarray` exists
only for type tests (no array is an instance of it). Any other name raises an
``AttributeError`` that says ChainerX is not available.
"""

from __future__ import annotations

from typing import Any

__all__ = ['is_available', 'ndarray']

_UNAVAILABLE = (
    'ChainerX is not available: this project does not provide it; '
    "use NumPy ('@numpy') or CuPy ('@cupy:N') arrays")


def is_available() -> bool:
    """Whether ChainerX can be used: always False here."""
    return False


class ndarray:
    """Placeholder for ChainerX's array type: constructing one raises RuntimeError."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError(_UNAVAILABLE)


def __getattr__(name: str) -> Any:
    if name.startswith('__'):
        raise AttributeError(name)
    raise AttributeError(f"module 'chainerx' has no attribute {name!r} ({_UNAVAILABLE})")
