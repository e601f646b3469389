"""iDeep (Intel64) backend, kept so that Chainer v7 code importing it still runs.

iDeep is not provided by this project: :func:`is_ideep_available` is False, no array
is an :class:`mdarray`, :func:`should_use_ideep` is always False, and constructing an
:class:`Intel64Device` raises ``RuntimeError``, as Chainer v7 behaves on a machine
without iDeep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.backend._device import Intel64Device, _not_provided

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray

__all__ = [
    'Intel64Device', 'check_ideep_available', 'ideep', 'inputs_all_ready',
    'is_ideep_available', 'mdarray', 'should_use_ideep',
]

ideep: Any = None
"""The ``ideep4py`` module in Chainer v7; None here (iDeep is not provided)."""


class mdarray:
    """Placeholder for iDeep's array type: no array is ever an instance of it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise _not_provided('iDeep (intel64.mdarray)')


def is_ideep_available() -> bool:
    """Whether iDeep can be used: always False (iDeep is not provided)."""
    return False


def check_ideep_available() -> None:
    """Raise ``RuntimeError``: iDeep is not provided."""
    raise _not_provided('iDeep')


def should_use_ideep(level: str) -> bool:
    """Whether a function should run through iDeep at ``level``: always False.

    Args:
        level: ``'==always'`` or ``'>=auto'``.

    Raises:
        ValueError: for another level.
    """
    if level not in ('==always', '>=auto'):
        raise ValueError(f'invalid iDeep level {level!r}: use "==always" or ">=auto"')
    return False


def inputs_all_ready(inputs: Sequence[NdArray | None],
                     supported_ndim: tuple[int, ...] = (2, 4)) -> bool:
    """Whether every input can go to iDeep: always False (iDeep is not provided)."""
    return False
